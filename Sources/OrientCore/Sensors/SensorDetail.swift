/// Something a sensor says about itself beyond its id, name and interval, which `status` and `doctor` show: a
/// number its readings depend on. Each kind lists its own (``SensorKind/details``); `status` writes each of them,
/// `null` while unknown, so that a client reads one shape.
public enum SensorDetail: String, Sendable, Hashable, CaseIterable {
    /// A proximity sensor's near level: its raw reading above which it reads near.
    case nearLevel = "near-level"

    /// How a person reads it: `near level`.
    public var label: String { String(rawValue.map { $0 == "-" ? " " : $0 }) }
}

extension SensorKind {
    /// The details a sensor of this kind gives, in the order `status` lists them.
    public var details: [SensorDetail] {
        switch self {
        case .proximity: [.nearLevel]
        case .accelerometer, .light, .compass: []
        }
    }
}
