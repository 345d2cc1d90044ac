import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientSensors
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

    @Test("Paced by the trace's own times: two seconds of trace at speed 10 take 0.2 s, no sample early or late")
    func pacing() async throws {
        let clock = SteppedClock()
        let source = try ReplaySource(path: try traceFile(count: 201), speed: .factor(10), sleep: clock.sleep, now: clock.now)
        var arrivals: [(time: Double, at: Duration)] = []
        for await event in source.events() {
            if case .sample(let sample) = event { arrivals.append((sample.time, clock.elapsed)) }
        }
        #expect(arrivals.count == 201)
        for (time, at) in arrivals {
            // The first sample is the origin; each later one is due a tenth of its trace time after it.
            let due = Duration.seconds((time - 5) / 10)
            #expect(at >= due, "sample \(time) handed over at \(at), before it was due at \(due)")
            #expect(at < due + ReplaySource.batchInterval, "sample \(time) handed over at \(at), a wakeup late")
        }
        #expect(clock.elapsed == .milliseconds(200))
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

    @Test("A trace with the hinge's column is a machine with a hinge sensor: described so, each angle played")
    func hingeAngles() async throws {
        let angles: [KernelHingeAngle] = [.degrees(100), .unknown, .degrees(350.5)]
        var text = TraceFormat.preamble(TraceMetadata(source: "hinged"), columns: .displayAndHinge)
        for (i, angle) in angles.enumerated() {
            text += TraceFormat.line(AccelSample(time: Double(i) * 0.1, acceleration: Vector3(0, -9.8, 0), hinge: angle))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).trace").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let events = await collect(try ReplaySource(path: path, speed: .max).events())
        guard case .opened(let description) = events.first else {
            Issue.record("no opened event first")
            return
        }
        #expect(description.hinge == HingeSensorDescription(id: path, name: "trace"))
        #expect(description.base == nil)
        let samples = events.compactMap { event -> AccelSample? in if case .sample(let sample) = event { sample } else { nil } }
        #expect(samples.map(\.hinge) == angles)

        let plain = await collect(try ReplaySource(path: try traceFile(count: 3), speed: .max).events(), limit: 1)
        guard case .opened(let without) = plain.first else {
            Issue.record("no opened event first")
            return
        }
        #expect(without.hinge == nil, "a trace without the column has no hinge sensor")
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
        let held = HeldSleep()
        var sleeps = held.requests.makeAsyncIterator()
        let source = try ReplaySource(path: try traceFile(count: 100), speed: .factor(4), sleep: held.sleep, now: held.now)
        let delivered = Mutex<[SensorEvent]>([])
        let handle = source.start(CaptureSettings()) { event in delivered.withLock { $0.append(event) } }
        // The first sample sets the pace; the second waits for its time, is let go, and the third waits.
        _ = await sleeps.next()
        held.release()
        _ = await sleeps.next()
        await handle.stop()
        let atStop = delivered.withLock { $0 }
        #expect(sampleTimes(atStop) == [5, 5.01])

        // Nothing is delivered once stop has returned: the next event is the second start's `opened`, then the
        // sample the first start was waiting to hand over, at once, as the origin of the new pace.
        let again = source.start(CaptureSettings()) { event in delivered.withLock { $0.append(event) } }
        _ = await sleeps.next()
        await again.stop()
        let events = delivered.withLock { $0 }
        try #require(events.count == atStop.count + 2)
        #expect(events[atStop.count] == events[0], "delivered after stop returned: \(events[atStop.count])")
        #expect(sampleTimes(events) == [5, 5.01, 5.02], "the second start continues, no repeats")
        #expect(events.filter { if case .opened = $0 { true } else { false } }.count == 2)
    }

    @Test("At real speed a 100 Hz trace is handed over in batches, one wakeup per 40 ms, and no sample early")
    func batchedWakeups() async throws {
        let clock = SteppedClock()
        let source = try ReplaySource(path: try traceFile(count: 61), speed: .factor(1), sleep: clock.sleep, now: clock.now)
        var batches: [Duration: [Double]] = [:]
        for await event in source.events() {
            if case .sample(let sample) = event { batches[clock.elapsed, default: []].append(sample.time) }
        }
        // 0.6 s of trace after the first sample: 15 intervals of 40 ms, each one sleep, not 60.
        #expect(clock.sleeps == Array(repeating: .milliseconds(40), count: 15))
        #expect(batches.keys.sorted() == (0...15).map { .milliseconds(40 * $0) })
        for (at, times) in batches {
            #expect(times.allSatisfy { .seconds($0 - 5) <= at }, "handed over at \(at) before due: \(times)")
            #expect(times.allSatisfy { .seconds($0 - 5) > at - ReplaySource.batchInterval }, "held past a wakeup: \(times)")
        }
    }
}
