import OrientCore
import OrientSampleSource
import OrientScenarios
import Synchronization

/// An accelerometer that sends what the test gives it, in order, and stays open between, as a live sensor with
/// nothing new, until its reader stops. It says whether anyone read it.
final class ScriptedSampleSource: SampleSource {
    private let (stream, continuation) = AsyncStream.makeStream(of: SensorEvent.self)
    private let reads = Mutex(0)

    init(_ events: [SensorEvent]) { send(events) }

    /// Sends `events` after those sent before.
    func send(_ events: [SensorEvent]) {
        for event in events { continuation.yield(event) }
    }

    /// Whether a reader has started reading it.
    var wasRead: Bool { reads.withLock { $0 > 0 } }

    /// One reader at a time, as a session reads it.
    func events(_ settings: CaptureSettings) -> AsyncStream<SensorEvent> {
        reads.withLock { $0 += 1 }
        return stream
    }

    func start(_ settings: LiveSettings<CaptureSettings>, _ deliver: @escaping @Sendable (SensorEvent) -> NextRead)
        -> CaptureHandle
    {
        let reading = Task { for await event in events(settings.current) { _ = deliver(event) } }
        return CaptureHandle { reading.cancel() }
    }
}

/// Poses held in turn, as an emulated sensor reads them at 50 Hz: the script of a ``ScriptedSampleSource``.
struct HeldPoses {
    /// How the sensor is mounted: it reads Mᵀ · gravity.
    let mounting: MountMatrix
    private(set) var time = 0.0
    private var random = SeededRandom(seed: 1)

    init(mounting: MountMatrix) { self.mounting = mounting }

    /// Gravity `display` in the display frame, `g` times 1 g, for `seconds`, each axis jittering by up to `noise`
    /// m/s² (0.08: a still device's noise; 2.3: shaken).
    mutating func hold(_ gravity: Vector3, seconds: Double = 2, g: Double = 1, noise: Double = 0.08) -> [SensorEvent] {
        let m = mounting.rows
        let reading = (m.x * gravity.x + m.y * gravity.y + m.z * gravity.z) * (9.80665 * g)
        var events: [SensorEvent] = []
        for _ in 0..<Int((seconds * 50).rounded()) {
            time += 0.02
            let jitter = Vector3(
                random.uniform(-noise...noise), random.uniform(-noise...noise), random.uniform(-noise...noise))
            events.append(.sample(AccelSample(time: time, acceleration: reading + jitter)))
        }
        return events
    }

    /// Each of `poses` held for two seconds, in turn.
    mutating func hold(_ poses: [Vector3]) -> [SensorEvent] { poses.flatMap { hold($0) } }
}
