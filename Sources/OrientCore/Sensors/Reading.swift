/// One value read from a sensor that gives one value at a time: light, proximity, compass.
public enum Reading: Sendable, Hashable {
    /// An ambient light level, in the sensor's own unit.
    case light(level: Double, unit: LightUnit)
    /// Whether something is near the proximity sensor (a head during a call).
    case proximity(near: Bool)
    /// The compass heading: degrees clockwise from magnetic north, tilt-compensated.
    case compass(heading: Double)

    public var kind: SensorKind {
        switch self {
        case .light: .light
        case .proximity: .proximity
        case .compass: .compass
        }
    }
}

/// What a light level is measured in, named as iio-sensor-proxy's `LightLevelUnit` names it. Open: a client takes
/// a unit it does not know (from a newer daemon) as it is said.
public struct LightUnit: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    /// As the unit is written: `lux`.
    public var description: String { rawValue }

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Illuminance, from IIO light sensors.
    public static let lux = LightUnit(rawValue: "lux")
    /// A scale of the driver's own (Apple's applesmc: a percentage).
    public static let vendor = LightUnit(rawValue: "vendor")
}
