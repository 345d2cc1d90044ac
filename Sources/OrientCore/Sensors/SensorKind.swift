/// The kinds of sensor the daemon serves. The accelerometer (with its base sensor and lid) drives the engine; the
/// others give one value at a time. Each layer that shows a kind says how in one exhaustive switch over it (its
/// D-Bus binding, its place on the socket), so that a new kind is asked for by the compiler wherever it must go.
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
