/// Anything that reads one kind of one-value sensor (light, and later proximity and compass): found through udev,
/// read only between ``start(_:)`` and the handle's `stop()`, followed through hot-plug meanwhile.
public protocol ReadingSource: Sendable {
    var kind: SensorKind { get }
    /// Starts reading. `deliver` gets every event in order, on the source's own thread. With no sensor present
    /// the source says `.noSensor` and waits, without waking, for one to appear.
    func start(_ deliver: @escaping @Sendable (ReadingEvent) -> Void) -> CaptureHandle
    /// Whether such a sensor is plugged in, now and whenever that changes, without opening it.
    func presence() -> AsyncStream<Bool>
}
