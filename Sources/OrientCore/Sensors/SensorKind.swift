/// The kinds of sensor the daemon serves, and below them the value each one-value kind reads: a kind is described by
/// its case here and its value's case in ``Reading``. The accelerometer (with its base sensor and lid) drives the
/// engine; the others give one value at a time. Each layer that shows a kind says how in one exhaustive switch over
/// it (its D-Bus binding, its place on the socket), so that the compiler asks for a new kind wherever it must go.
public enum SensorKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case accelerometer
    case light
    case proximity
    case compass

    /// How the logs name it: "the light sensor".
    public var displayName: String {
        switch self {
        case .accelerometer: "accelerometer"
        case .light: "light sensor"
        case .proximity: "proximity sensor"
        case .compass: "compass"
        }
    }

    /// In the order of `allCases`, which is the order messages and `status` list kinds in.
    public static func < (a: SensorKind, b: SensorKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

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
