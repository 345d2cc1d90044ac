import OrientCore
import OrientTrace
import OrientPosix
import OrientSampleSource

/// Plays a trace file as a sensor, paced by its timestamps.
///
/// Pacing sleeps until absolute deadlines (start + trace time ÷ speed), so it does not drift over a long trace.
/// The stream is pull-based: at `max` speed a sample is read only when the consumer asks for one, so memory
/// stays flat however long the trace. With `loop`, the trace starts over and time keeps increasing.
///
/// Closing the stream pauses the replay and the next ``events()`` resumes it where it stopped, as a sensor that
/// was closed and reopened would go on: time never goes backwards. One stream at a time.
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
    /// The trace's `# natural-orientation:`, what the recorded device's poses were called; nil when it has none.
    public let naturalOrientation: NaturalOrientation?
    private let cursor: ReplayCursor

    /// How the replay waits for a sample's time. `Task.sleep` by default; the daemon sleeps on its event loop
    /// instead, since Task.sleep starts libdispatch's thread pool, whose monitor then wakes the process every
    /// second and whose threads each take a stack and a heap arena.
    public typealias Sleep = @Sendable (Duration) async throws -> Void
    /// How the replay reads the time it paces by: the continuous clock by default. A test gives a clock that
    /// moves only by what `sleep` was asked, so that pacing is checked without waiting.
    public typealias Now = @Sendable () -> ContinuousClock.Instant

    /// Opens the trace and checks it, so that a bad path or a bad line fails at start, naming the line, rather than
    /// when a client first opens the replay (or never, with none). A file is read through once here; standard input
    /// (`-`) and named pipes are played by the reader opened here, so only their preamble is checked before. Only
    /// `loop` opens the path again.
    public init(
        path: String, speed: Speed = .factor(1), loop: Bool = false,
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) }, now: @escaping Now = { .now }
    ) throws(TraceError) {
        let reader = try TraceReader(path: path)
        if reader.isRegularFile {
            let check = try TraceReader(path: path)
            while try check.next() != nil {}
        }
        self.path = path
        self.speed = speed
        self.loop = loop
        self.naturalOrientation = reader.metadata.naturalOrientation
        self.cursor = ReplayCursor(
            reader: reader, path: path, speed: speed, loop: loop, sleep: sleep, now: now)
    }

    /// The replay wakes at most once per interval and hands over every sample due by then (see `pace`).
    static let batchInterval = Duration.milliseconds(40)

    /// Pull-based: at `max` speed a sample is read only when the consumer asks for one.
    public func events(_ capture: CaptureSettings) -> AsyncStream<SensorEvent> {
        let cursor = self.cursor
        cursor.resume()
        return AsyncStream(unfolding: { await cursor.next() })
    }

    /// Plays from a task that hands each event to `deliver` before reading the next one.
    /// A trace keeps its own pace: the settings' rates are for live sensors.
    public func start(_ settings: LiveSettings<CaptureSettings>, _ deliver: @escaping @Sendable (SensorEvent) -> NextRead)
        -> CaptureHandle
    {
        let cursor = self.cursor
        cursor.resume()
        let task = Task {
            // An event read is delivered even when a stop came meanwhile: the next start goes on after it.
            while let event = await cursor.next() {
                _ = deliver(event)
                if Task.isCancelled { break }
            }
        }
        let handle = CaptureHandle { task.cancel() }
        Task {
            await task.value
            handle.markFinished()
        }
        return handle
    }
}

/// The replay's position. `AsyncStream(unfolding:)` calls `next()` once at a time, from one consumer, and the
/// daemon never runs two streams of one source at once.
private final class ReplayCursor: @unchecked Sendable {
    private let path: String
    private let speed: ReplaySource.Speed
    private let loop: Bool
    private let sleep: ReplaySource.Sleep
    private let now: ReplaySource.Now
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
    private var pendingSample: AccelSample?
    /// Reads a pipe's samples (standard input, a named pipe), which wait for the writer; a file's are read inline.
    private let pipeReader: BlockingWorker?

    init(
        reader: TraceReader, path: String, speed: ReplaySource.Speed, loop: Bool,
        sleep: @escaping ReplaySource.Sleep, now: @escaping ReplaySource.Now
    ) {
        self.sleep = sleep
        self.now = now
        self.reader = reader
        self.path = path
        self.speed = speed
        self.loop = loop
        self.pipeReader = reader.isRegularFile ? nil : BlockingWorker(name: "orientd-replay")
    }

    /// The trace's next sample, read off Swift concurrency's threads when reading may wait.
    private func nextSample(_ reader: TraceReader) async throws(TraceError) -> AccelSample? {
        guard let pipeReader else { return try reader.next() }
        nonisolated(unsafe) let reader = reader
        let result = await pipeReader.run { () -> Result<AccelSample?, TraceError> in
            Result { () throws(TraceError) in try reader.next() }
        }
        return try result.get()
    }

    /// Starts a new stream: announce the sensor again and pace from now, keeping the position in the trace.
    func resume() {
        opened = false
        start = nil
    }

    func next() async -> SensorEvent? {
        if finished { return nil }
        do {
            if reader == nil { reader = try TraceReader(path: path) }
            guard let reader else { return nil }
            if !opened {
                opened = true
                return .opened(describe(reader.metadata, columns: reader.columns))
            }
            let sample: AccelSample
            if let pendingSample {
                sample = pendingSample
            } else {
                guard let raw = try await nextSample(reader) else { return await endOfTrace() }
                if traceStart == nil { traceStart = raw.time }
                // Shifted in time only: a base reading and a hinge angle go along with their display reading.
                var shifted = raw
                shifted.time += offset
                sample = shifted
                if let lastTime, sample.time > lastTime { period = min(period, sample.time - lastTime) }
                lastTime = sample.time
            }
            // Kept until sent: a stream closed while waiting for its time hands it to the next stream.
            pendingSample = sample
            try await pace(sample.time)
            pendingSample = nil
            return .sample(sample)
        } catch is CancellationError {
            return nil
        } catch {
            finished = true
            return .lost(reason: "\(error)")
        }
    }

    private func endOfTrace() async -> SensorEvent? {
        guard loop, let lastTime, let traceStart else {
            finished = true
            return .sourceEnded
        }
        // The next pass starts one sample period after this one ended.
        offset = lastTime + period - traceStart
        reader = nil
        return await next()
    }

    private func pace(_ time: Double) async throws {
        guard case .factor(let factor) = speed else { return }
        let now = self.now()
        guard let start else {
            start = (now, time)
            return
        }
        let deadline = start.instant + .seconds((time - start.time) / factor)
        guard deadline > now else { return }
        // Wake on a grid of `batchInterval` from the start, never between: samples due within one interval are
        // delivered together, as a buffered sensor's FIFO hands them over at its watermark. Each carries its
        // own time, so what the classifier makes of them does not change; only the wakeups do.
        let intervals = ((deadline - start.instant) / ReplaySource.batchInterval).rounded(.up)
        try await sleep(start.instant + ReplaySource.batchInterval * intervals - self.now())
    }

    /// A two-sensor trace describes a convertible: its base matrix is the trace's, identity when it names none. A
    /// trace with the hinge's column describes one with a kernel hinge sensor, so that the daemon reads posture.
    private func describe(_ metadata: TraceMetadata, columns: TraceColumns) -> SensorDescription {
        let name = metadata.source ?? String(path.split(separator: "/").last ?? "trace")
        let matrix = metadata.mountMatrix ?? .identity
        let matrixSource: SensorDescription.MatrixSource = metadata.mountMatrix != nil ? .trace : .identity
        // `record` names the base sensor in `base-source`; other traces say nothing of it.
        let base = columns.hasBase ? BaseSensorDescription(
            id: path, name: metadata.entries.last { $0.key == "base-source" }?.value ?? "\(name) base",
            mountMatrix: metadata.baseMountMatrix ?? .identity,
            mountMatrixSource: metadata.baseMountMatrix != nil ? .trace : .identity) : nil
        let hinge = columns.hasHinge ? HingeSensorDescription(id: path, name: "trace") : nil
        return SensorDescription(
            id: path, name: name, mode: .replay, mountMatrix: matrix, mountMatrixSource: matrixSource, base: base,
            hinge: hinge, scaleSource: .none)
    }
}
