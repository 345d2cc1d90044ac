import OrientCore

/// What a sample source reports.
public enum SensorEvent: Sendable, Equatable {
    /// A sensor was opened; its samples follow.
    case opened(SensorDescription)
    /// One reading in the sensor's own frame, in m/s² (scale and offset applied, mount matrix not applied),
    /// on a monotonic clock in seconds.
    case sample(AccelSample)
    /// The sensor went away, or its reads keep failing; `opened` follows when one (re)appears or reads again.
    case closed(reason: String)
    /// No usable sensor is present (at start, or after the last one went away). Not fatal: sources keep waiting.
    case noSensor(reason: String)
    /// A replayed trace ran out (sources that end send this last).
    case ended
}

/// Anything that produces accelerometer samples: a live IIO sensor, a replayed trace, a test fake.
///
/// Capture starts when ``events()`` is called and stops when the consumer stops iterating (the stream is
/// cancelled or dropped), so a daemon can keep the sensor closed while nobody listens.
public protocol SampleSource: Sendable {
    func events() -> AsyncStream<SensorEvent>
    /// Whether the sensor is plugged in, now and whenever that changes, without opening it.
    func presence() -> AsyncStream<Bool>
}

extension SampleSource {
    /// Sources that are not hardware (a replayed trace) are always there.
    public func presence() -> AsyncStream<Bool> {
        AsyncStream { continuation in continuation.yield(true) }
    }
}
