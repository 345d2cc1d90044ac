import OrientCore

/// Anything that reads one kind of sensor: a live device found through udev, a replayed trace, a test's fake. It
/// reads only between `start` and the handle's `stop()`, so a daemon keeps the sensor closed while nobody wants it,
/// and says meanwhile whether such a sensor is plugged in.
///
/// Every kind has one: the accelerometer's is a ``SampleSource``, a one-value sensor's a ``ReadingSource``.
public protocol SensorSource: Sendable {
    /// What it reports, in order: ``SensorEvent`` or ``ReadingEvent``.
    associatedtype Event: Sendable
    /// Its slice of the settings, which it reads while it runs (``LiveSettings``).
    associatedtype Settings: Sendable & Equatable

    var kind: SensorKind { get }
    /// Starts reading with `settings` as they are now and as a reload sets them. `deliver` gets every event in order,
    /// on the source's own thread (the daemon does its work there, so an event costs one wakeup), and says when it
    /// wants the next reading; a source that cannot read sooner keeps its own pace. With no sensor present the
    /// source says so (`noSensor`) and waits, without waking, for one to appear.
    func start(_ settings: LiveSettings<Settings>, _ deliver: @escaping @Sendable (Event) -> NextRead) -> CaptureHandle
    /// The same events as a stream, for the commands that collect them (`doctor`, `record`). Reading stops when the
    /// stream is cancelled or dropped.
    func events(_ settings: Settings) -> AsyncStream<Event>
    /// Whether such a sensor is plugged in, now and whenever that changes, without opening it.
    func presence() -> AsyncStream<Bool>
}

/// The accelerometer's source: samples, with the sensor's lid and base sensor beside them.
public protocol SampleSource: SensorSource where Event == SensorEvent, Settings == CaptureSettings {}

/// A one-value sensor's source (light, proximity, compass).
public protocol ReadingSource: SensorSource where Event == ReadingEvent, Settings == SourceSettings {}

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

extension SensorSource {
    /// Starts reading with fixed `settings`, every event at the source's own pace.
    public func start(_ settings: Settings, _ deliver: @escaping @Sendable (Event) -> Void) -> CaptureHandle {
        start(LiveSettings(settings)) { event in
            deliver(event)
            return .onSchedule
        }
    }

    public func events(_ settings: Settings) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
        let handle = start(settings) { continuation.yield($0) }
        continuation.onTermination = { _ in handle.cancel() }
        Task {
            await handle.finished()
            continuation.finish()
        }
        return stream
    }
}

extension SampleSource {
    public var kind: SensorKind { .accelerometer }

    public func events() -> AsyncStream<SensorEvent> { events(CaptureSettings()) }

    /// Sources that are not hardware (a replayed trace) are always there.
    public func presence() -> AsyncStream<Bool> {
        AsyncStream { continuation in continuation.yield(true) }
    }
}

extension ReadingSource {
    /// Starts reading at the drivers' own intervals, every event at the source's own pace.
    public func start(_ deliver: @escaping @Sendable (ReadingEvent) -> Void) -> CaptureHandle {
        start(SourceSettings(), deliver)
    }
}
