import OrientCore

/// Anything that reads one kind of one-value sensor (light, proximity, compass): found through udev,
/// read only between ``start(_:)`` and the handle's `stop()`, followed through hot-plug meanwhile.
public protocol ReadingSource: Sendable {
    var kind: SensorKind { get }
    /// Starts reading. `deliver` gets every event in order, on the source's own thread. With no sensor present
    /// the source says `.noSensor` and waits, without waking, for one to appear.
    func start(_ deliver: @escaping @Sendable (ReadingEvent) -> Void) -> CaptureHandle
    /// Starts reading as ``start(_:)`` does, at the interval `settings` says while it runs, and lets `deliver` ask
    /// for the next read sooner than the interval (the light filter confirming a new level). A source that cannot
    /// read sooner, or at another interval, keeps its own.
    func start(_ settings: LiveSettings<SourceSettings>, paced deliver: @escaping @Sendable (ReadingEvent) -> NextRead)
        -> CaptureHandle
    /// Whether such a sensor is plugged in, now and whenever that changes, without opening it.
    func presence() -> AsyncStream<Bool>
}

/// When the consumer of a reading wants the next one.
public enum NextRead: Sendable, Equatable {
    /// At the source's own interval.
    case onSchedule
    /// Within this many seconds, or at the interval if that is sooner.
    case within(seconds: Double)
    /// As ``within(seconds:)``, from the sensor itself: a buffered sensor with no new scan is read through its raw
    /// attribute, not given its last scan again (a reading in doubt, such as a 0 as the sensor wakes).
    case fresh(within: Double)
}

extension ReadingSource {
    public func start(_ settings: LiveSettings<SourceSettings>, paced deliver: @escaping @Sendable (ReadingEvent) -> NextRead)
        -> CaptureHandle
    {
        start { _ = deliver($0) }
    }
}
