import OrientCore

/// What a sample source reports.
public enum SensorEvent: Sendable, Equatable {
    /// A sensor was opened; its samples follow.
    case opened(SensorDescription)
    /// One reading in the sensor's own frame, in m/s² (scale and offset applied, mount matrix not applied),
    /// on a monotonic clock in seconds.
    case sample(AccelSample)
    /// The live source learned 1 g from readings at rest (the driver gives no scale, or a wrong one) and corrects
    /// the samples that follow by it. It has logged it; `doctor` shows it.
    case gravityLearned(GravityCorrection)
    /// The same for a convertible's base sensor: the `base` of the samples that follow is corrected by it.
    case baseGravityLearned(GravityCorrection)
    /// The lid switch (SW_LID) reads shut or open: sent when the sensor opens, and at each change. A device with
    /// no lid switch sends none.
    case lid(closed: Bool)
    /// A convertible's base sensor went away, or its reads keep failing; the display's samples go on, without
    /// `base`. Posture and tablet mode are unknown until base readings come back.
    case baseLost(reason: String)
    /// The sensor went away, or its reads keep failing; `opened` follows when one (re)appears or reads again.
    case lost(reason: String)
    /// No usable sensor is present (at start, or after the last one went away). Not fatal: sources keep waiting.
    case noSensor(reason: String)
    /// Something the capture ran into and handled on its own (a buffer that gave nothing, opened again or polled;
    /// one that delivers again), as the log said it: counted in `status`, shown by `orientd doctor`.
    case incident(String)
    /// A replayed trace ran out (sources that end send this last).
    case sourceEnded
}

/// Anything that produces accelerometer samples: a live IIO sensor, a replayed trace, a test fake.
///
/// Capture runs between ``start(_:)`` and the handle's `stop()`, so a daemon can keep the sensor closed while
/// nobody listens.
public protocol SampleSource: Sendable {
    /// Starts capture. `deliver` gets every event in order, on the capture's own thread: the daemon classifies
    /// there, so a sample costs one wakeup, not a second one to hand it to another thread.
    ///
    /// `capture` is the source's slice of the settings, taken anew at each start (a reload that changes it
    /// restarts the capture).
    func start(_ capture: CaptureSettings, _ deliver: @escaping @Sendable (SensorEvent) -> Void) -> CaptureHandle
    /// The same events as a stream, for the commands that collect them (`doctor`, `record`). Capture stops when
    /// the stream is cancelled or dropped.
    func events(_ capture: CaptureSettings) -> AsyncStream<SensorEvent>
    /// Whether the sensor is plugged in, now and whenever that changes, without opening it.
    func presence() -> AsyncStream<Bool>
}

extension SampleSource {
    public func events(_ capture: CaptureSettings = CaptureSettings()) -> AsyncStream<SensorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SensorEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let handle = start(capture) { continuation.yield($0) }
        continuation.onTermination = { _ in handle.cancel() }
        Task {
            await handle.finished()
            continuation.finish()
        }
        return stream
    }

    /// Sources that are not hardware (a replayed trace) are always there.
    public func presence() -> AsyncStream<Bool> {
        AsyncStream { continuation in continuation.yield(true) }
    }
}
