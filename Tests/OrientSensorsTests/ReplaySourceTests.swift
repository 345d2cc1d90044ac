import Foundation
import OrientCore
import OrientSampleSource
import OrientSensors
import OrientTrace
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A trace of `count` samples at 100 Hz, as text.
func traceText(count: Int) -> String {
    var text = TraceFormat.preamble(TraceMetadata(mountMatrix: nil, source: "replay test"))
    for i in 0..<count {
        text += TraceFormat.line(AccelSample(time: 5 + Double(i) * 0.01, x: 0, y: -9.8, z: Double(i) * 1e-3))
    }
    return text
}

func traceFile(count: Int) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).trace").path
    try traceText(count: count).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Every event of a stream, or the first `limit`.
func collect(_ stream: AsyncStream<SensorEvent>, limit: Int = .max) async -> [SensorEvent] {
    var events: [SensorEvent] = []
    for await event in stream {
        events.append(event)
        if events.count >= limit { break }
    }
    return events
}

func sampleTimes(_ events: [SensorEvent]) -> [Double] {
    events.compactMap { if case .sample(let s) = $0 { s.time } else { nil } }
}

@Suite("Replay source")
struct ReplaySourceTests {
    @Test("At max speed: opened, every sample in order, then ended")
    func plays() async throws {
        let source = try ReplaySource(path: try traceFile(count: 500), speed: .max)
        let events = await collect(source.events())
        guard case .opened(let description) = events.first else {
            Issue.record("no opened event first")
            return
        }
        #expect(description.mode == .replay && description.name == "replay test" && description.mountMatrixSource == .identity)
        let expected: [Double] = (0..<500).map { index in
            let time: Double = 5 + Double(index) * 0.01
            return (time * 1e6).rounded() / 1e6
        }
        #expect(sampleTimes(events) == expected)
        #expect(events.last == .sourceEnded)
    }

    @Test("Paced by the trace's own times: two seconds of trace at speed 10 take at least 0.2 s")
    func pacing() async throws {
        let source = try ReplaySource(path: try traceFile(count: 201), speed: .factor(10))
        let clock = ContinuousClock()
        let start = clock.now
        let events = await collect(source.events())
        #expect(sampleTimes(events).count == 201)
        #expect(clock.now - start >= .milliseconds(195))
    }

    @Test("Closing the stream pauses; the next stream resumes where it stopped, announcing the sensor again")
    func pauseAndResume() async throws {
        let source = try ReplaySource(path: try traceFile(count: 300), speed: .max)
        let first = await collect(source.events(), limit: 101)
        let second = await collect(source.events())
        guard case .opened = second.first else {
            Issue.record("the resumed stream does not start with opened")
            return
        }
        let times = sampleTimes(first) + sampleTimes(second)
        #expect(times.count == 300, "no sample lost or repeated")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("Looping starts over with time still increasing")
    func loops() async throws {
        let source = try ReplaySource(path: try traceFile(count: 50), speed: .max, loop: true)
        let times = sampleTimes(await collect(source.events(), limit: 160))
        #expect(times.count >= 150)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("A named pipe plays once, read as it is written")
    func namedPipe() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        let text = traceText(count: 200)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.write(Data(text.utf8))
            try? handle.close()
        }
        writer.start()
        let source = try ReplaySource(path: path, speed: .max)
        let events = await collect(source.events())
        #expect(sampleTimes(events).count == 200)
        #expect(events.last == .sourceEnded)
    }

    @Test("A two-sensor trace plays with each sample's base reading, on later loops too")
    func baseReadings() async throws {
        var text = TraceFormat.preamble(TraceMetadata(baseMountMatrix: .identity, source: "convertible"))
        for i in 0..<20 {
            let t = 1 + Double(i) * 0.02
            text += TraceFormat.line(
                AccelSample(time: t, acceleration: Vector3(0, -9.8, 0), base: Vector3(0, Double(i) * 0.25, -9.8)))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let source = try ReplaySource(path: path, speed: .max, loop: true)
        let samples = await collect(source.events(), limit: 41).compactMap { event -> AccelSample? in
            if case .sample(let sample) = event { sample } else { nil }
        }
        #expect(samples.count == 40)
        let expected = (0..<20).map { Vector3(0, Double($0) * 0.25, -9.8) }  // quarters: exact in the file
        #expect(samples.map(\.base) == expected + expected)
        #expect(samples[20].time > samples[19].time, "the second loop goes on in time")
    }

    @Test("A missing or malformed trace fails at start, naming the file")
    func badTrace() throws {
        #expect(throws: TraceError.self) { try ReplaySource(path: "/nonexistent.trace") }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).trace").path
        try "0,1,2,3\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try ReplaySource(path: path) } throws: { "\($0)".contains(path + ":1:") }
    }

    @Test("start delivers in order on the capture's side; stop returns only after the last delivery, and a new start goes on from there")
    func startAndStop() async throws {
        // 50 s of replay at 4x speed: still playing however slowly a busy machine runs this test.
        let source = try ReplaySource(path: try traceFile(count: 20_000), speed: .factor(4))
        let delivered = Mutex<[SensorEvent]>([])
        let handle = source.start(CaptureSettings()) { event in delivered.withLock { $0.append(event) } }
        // Other suites may keep the cooperative pool busy: wait for samples rather than for a time.
        for _ in 0..<600 where delivered.withLock({ $0.count }) < 6 { try await Task.sleep(for: .milliseconds(50)) }
        await handle.stop()
        let atStop = delivered.withLock { $0.count }
        #expect(atStop > 5)

        // Nothing is delivered once stop has returned: the next event is the second start's `opened`, and what
        // follows goes on from the first start's last sample, with no repeat.
        let again = source.start(CaptureSettings()) { event in delivered.withLock { $0.append(event) } }
        for _ in 0..<600 where delivered.withLock({ $0.count }) < atStop + 6 { try await Task.sleep(for: .milliseconds(50)) }
        await again.stop()
        let events = delivered.withLock { $0 }
        try #require(events.count >= atStop + 6)
        #expect(events[atStop] == events[0], "delivered after stop returned: \(events[atStop])")
        let times = sampleTimes(events)
        #expect(times == times.sorted() && Set(times).count == times.count, "the second start continues, no repeats")
        #expect(events.filter { if case .opened = $0 { true } else { false } }.count == 2)
    }

    @Test("At real speed a 100 Hz trace is handed over in batches, one wakeup per 40 ms, and no sample early")
    func batchedWakeups() async throws {
        let source = try ReplaySource(path: try traceFile(count: 61), speed: .factor(1))
        let clock = ContinuousClock()
        let arrivals = Mutex<[(time: Double, at: ContinuousClock.Instant)]>([])
        let handle = source.start(CaptureSettings()) { event in
            if case .sample(let sample) = event { arrivals.withLock { $0.append((sample.time, clock.now)) } }
        }
        for _ in 0..<200 where arrivals.withLock({ $0.count }) < 61 { try await Task.sleep(for: .milliseconds(50)) }
        await handle.stop()
        let seen = arrivals.withLock { $0 }
        try #require(seen.count == 61)
        // The first sample sets the origin; each later one is due (time - 5 s) after it.
        let origin = seen[0].at
        for (time, at) in seen.dropFirst() {
            #expect(at - origin >= .seconds(time - 5) - .milliseconds(1), "sample \(time) delivered before it was due")
        }
        // Deliveries more than 10 ms apart start a new batch: 0.6 s makes 15 intervals of 40 ms, not 60 samples.
        // (A busy machine makes fewer, later batches; the pacing itself is what "never early" checks.)
        let batches = 1 + zip(seen.dropFirst(), seen).filter { $0.at - $1.at > .milliseconds(10) }.count
        #expect(batches <= 20, "\(batches) wakeups for 61 samples")
    }
}
