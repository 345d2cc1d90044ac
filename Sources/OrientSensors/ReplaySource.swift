import OrientCore
import OrientTrace

/// Plays a trace file as a sensor, paced by its timestamps.
///
/// Pacing sleeps until absolute deadlines (start + trace time ÷ speed), so it does not drift over a long trace.
/// The stream is pull-based: at `max` speed a sample is read only when the consumer asks for one, so memory
/// stays flat however long the trace. With `loop`, the trace starts over and time keeps increasing.
public struct ReplaySource: SampleSource {
    public enum Speed: Sendable, Equatable, CustomStringConvertible {
        /// Trace seconds per wall-clock second (1 is real time).
        case factor(Double)
        /// As fast as the consumer takes samples.
        case max

        /// Parses `max` or a positive number.
        public init?(_ text: String) {
            if text == "max" {
                self = .max
            } else if let value = Double(text), value > 0, value.isFinite {
                self = .factor(value)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .max: "max"
            case .factor(let f): "\(f)"
            }
        }
    }

    public let path: String
    public let speed: Speed
    public let loop: Bool
    /// Wins over the trace's own `# mount-matrix:` line.
    public let mountMatrixOverride: MountMatrix?

    /// Checks that the trace opens and its preamble is valid, so a bad path fails at start, not later.
    public init(path: String, speed: Speed = .factor(1), loop: Bool = false, mountMatrixOverride: MountMatrix? = nil)
        throws(TraceError)
    {
        _ = try TraceReader(path: path)
        self.path = path
        self.speed = speed
        self.loop = loop
        self.mountMatrixOverride = mountMatrixOverride
    }

    public func events() -> AsyncStream<SensorEvent> {
        let cursor = ReplayCursor(source: self)
        return AsyncStream(unfolding: { await cursor.next() })
    }
}

/// The replay's position. `AsyncStream(unfolding:)` calls `next()` once at a time, from one consumer.
private final class ReplayCursor: @unchecked Sendable {
    private let source: ReplaySource
    private let clock = ContinuousClock()
    private var reader: TraceReader?
    private var opened = false
    private var finished = false
    /// When the first sample was emitted, and its time: the origin of every pacing deadline.
    private var start: (instant: ContinuousClock.Instant, time: Double)?
    /// The trace's own first sample time.
    private var traceStart: Double?
    /// Added to trace times on later loops, so time keeps increasing.
    private var offset = 0.0
    private var lastTime: Double?
    private var period = 0.01

    init(source: ReplaySource) {
        self.source = source
    }

    func next() async -> SensorEvent? {
        if finished { return nil }
        do {
            if reader == nil { reader = try TraceReader(path: source.path) }
            guard let reader else { return nil }
            if !opened {
                opened = true
                return .opened(describe(reader.metadata))
            }
            guard let sample = try reader.next() else { return await endOfTrace() }
            if traceStart == nil { traceStart = sample.time }
            let time = sample.time + offset
            if let lastTime, time > lastTime { period = min(period, time - lastTime) }
            lastTime = time
            try await pace(time)
            return .sample(AccelSample(time: time, acceleration: sample.acceleration))
        } catch is CancellationError {
            finished = true
            return nil
        } catch {
            finished = true
            return .closed(reason: "\(error)")
        }
    }

    private func endOfTrace() async -> SensorEvent? {
        guard source.loop, let lastTime, let traceStart else {
            finished = true
            return .ended
        }
        // The next pass starts one sample period after this one ended.
        offset = lastTime + period - traceStart
        reader = nil
        return await next()
    }

    private func pace(_ time: Double) async throws {
        guard case .factor(let factor) = source.speed else { return }
        let now = clock.now
        guard let start else {
            start = (now, time)
            return
        }
        let deadline = start.instant + .seconds((time - start.time) / factor)
        if deadline > now { try await clock.sleep(until: deadline) }
    }

    private func describe(_ metadata: TraceMetadata) -> SensorDescription {
        let name = metadata.source ?? String(source.path.split(separator: "/").last ?? "trace")
        let matrix = source.mountMatrixOverride ?? metadata.mountMatrix ?? .identity
        let matrixSource: SensorDescription.MatrixSource =
            source.mountMatrixOverride != nil ? .configuration : (metadata.mountMatrix != nil ? .trace : .identity)
        return SensorDescription(
            id: source.path, name: name, mode: .replay, mountMatrix: matrix, mountMatrixSource: matrixSource,
            scaleSource: .none)
    }
}
