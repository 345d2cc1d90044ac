import OrientCore
import OrientSampleSource

/// What a kind's sensor service tells the store (``Publisher/take(_:of:)``), in the order it happens: one type for
/// every kind, so that the store has one way in. The accelerometer's richer cases carry what the engine made of a
/// sample; the one-value kinds' carry their ``Reading``.
public enum SensorNews: Sendable, Equatable {
    /// Whether a sensor of the kind is plugged in (udev's word), at start and at every change, read or not.
    case present(Bool)
    /// Someone wants the kind: the source is started, and its news follows.
    case started
    /// Something went wrong and was handled; `status` counts it.
    case incident(String)
    /// The open sensor went away or could not be read.
    case lost(reason: String)
    /// No sensor of the kind could be opened.
    case noSensor(reason: String)
    /// Nobody wants the kind any more: the source is stopped, and nothing follows until the next `started`.
    case stopped

    /// A one-value sensor opened (again).
    case opened(ReadingSensorDescription)
    /// A one-value sensor's value, as its service publishes it (light after its filter).
    case read(Reading)

    /// An accelerometer opened (again), with the base sensor beside it, if any.
    case accelerometerOpened(SensorDescription)
    /// What one accelerometer sample changed.
    case accelerometerRead(AccelerometerUpdate)
    /// A convertible's base sensor went away while the display's goes on.
    case baseLost
    /// A kernel hinge sensor went away while the display's goes on.
    case hingeLost
    /// A replayed trace ran out.
    case ended
}

extension SensorNews {
    /// A one-value source's event, as its service passes it on.
    init(_ event: ReadingEvent) {
        switch event {
        case .opened(let description): self = .opened(description)
        case .reading(let reading): self = .read(reading)
        case .lost(let reason): self = .lost(reason: reason)
        case .noSensor(let reason): self = .noSensor(reason: reason)
        case .incident(let what): self = .incident(what)
        }
    }
}
