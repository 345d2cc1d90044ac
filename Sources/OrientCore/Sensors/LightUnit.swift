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
