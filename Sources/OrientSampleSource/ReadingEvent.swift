import OrientCore

/// What a one-value sensor says about itself when it opens: for the logs and, later, `status` and `doctor`.
public struct ReadingSensorDescription: Sendable, Equatable {
    public var kind: SensorKind
    /// `iio:device1`.
    public var id: String
    /// The driver's name (`acpi-als`), or the id when it has none.
    public var name: String
    /// Seconds between two reads.
    public var interval: Double
    /// Why this device was taken for the kind: `IIO_SENSOR_PROXY_TYPE iio-poll-als`, `channel in_illuminance_input`.
    public var foundBy: String
    /// What it says about itself that its kind's readings depend on (``SensorKind/details``): a proximity sensor's
    /// near level.
    public var details: [SensorDetail: Double]
    /// Its readings go out as read, past any filter: a fake sensor's made-up values, which a developer checking
    /// a client wants to see as iio-sensor-proxy sends them, and applesmc's, read too seldom to hunt.
    public var publishedAsRead = false

    public init(kind: SensorKind, id: String, name: String, interval: Double, foundBy: String, details: [SensorDetail: Double] = [:]) {
        self.kind = kind
        self.id = id
        self.name = name
        self.interval = interval
        self.foundBy = foundBy
        self.details = details
    }

    /// `acpi-als (iio:device1)`, or the id alone when the driver has no name.
    public var displayName: String { name == id ? id : "\(name) (\(id))" }
}

/// What a reading source reports.
public enum ReadingEvent: Sendable, Equatable {
    /// A sensor was opened; its readings follow.
    case opened(ReadingSensorDescription)
    /// A new value (sent when read, whether or not it changed: the consumer decides what is a change).
    case reading(Reading)
    /// The sensor went away; `opened` follows when one (re)appears.
    case lost(reason: String)
    /// No sensor of this kind is present (at start, or after the last one went away). Not fatal: the source waits.
    case noSensor(reason: String)
    /// Something the capture ran into and handled on its own, as the log said it (``SensorEvent/incident(_:)``).
    case incident(String)
}
