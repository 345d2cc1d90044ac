/// The kinds of sensor the daemon serves. The accelerometer (with its base sensor and lid) drives the engine
/// through ``SampleSource``; the others give one value at a time through ``ReadingSource``.
public enum SensorKind: String, Sendable, Hashable, CaseIterable {
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
}
