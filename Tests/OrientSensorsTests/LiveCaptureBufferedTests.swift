import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Testing

/// The accelerometer's capture reading a buffer, in the test's own process: what it delivers while the buffer
/// speaks and while it is silent, the rates it asks of the device, and the fall back to polling, on a buffered
/// accelerometer the test feeds (``ScriptedBufferedAccelerometer``). The silence checks come after 2 s, 4 s more,
/// then every 8 s (``BufferSilence``), so some of these tests take as long.
@Suite("Buffered accelerometer capture, in process")
struct LiveCaptureBufferedTests {
    static let scale = LiveCaptureTests.scale
    static let sensor = LiveCaptureTests.display
    /// Portrait, landscape-right and landscape-left, as raw readings at ``scale``.
    static let portrait = Vector3(0, -256, 0)
    static let right = Vector3(256, 0, 0)
    static let left = Vector3(-256, 0, 0)

    let directory: FolderDeviceDirectory
    let opener = ScriptedOpener()
    let events = EventLog<SensorEvent>()
    let log = RecordingLog()

    init() throws { directory = try FolderDeviceDirectory() }

    /// The capture at the daemon's rates, on a buffered sensor whose raw attributes read `raw`, opened through its
    /// buffer.
    private func start(raw: Vector3, clock: TimestampClock? = nil) async throws -> (ScriptedBufferedAccelerometer, CaptureHandle) {
        let buffered = opener.scriptBuffered(Self.sensor.id, scale: Self.scale, raw: raw, clock: clock)
        directory.add(Self.sensor)
        let events = self.events
        let handle = LiveCapture.start(
            configuration: LiveSensorConfiguration(), capture: CaptureSettings(rate: 50, stillRate: 5, restRate: 2),
            udev: directory, opener: opener, learned: LearnedGravity(), logger: log.logger
        ) { events.append($0) }
        #expect(try #require(await events.opened()).mode == .buffered)
        return (buffered, handle)
    }

    /// Whether `condition` holds, waiting up to `seconds` for it.
    private func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    private static func metres(_ raw: Vector3) -> Vector3 { raw * scale.x }

    @Test("The raw reading when the buffer opens, sent again while it says nothing; the scans that come later take over, still buffered")
    func rawFirstThenScans() async throws {
        let (buffered, handle) = try await start(raw: Self.right)
        let first = try #require(await events.sample())
        #expect(first.acceleration.isNear(Self.metres(Self.right)), "read from the raw attributes")
        // Before the first silence check, which reads the raw attributes again, 2 s after the open.
        let held = await events.sample { $0.time > first.time && $0.time < first.time + 1.5 }
        #expect(held?.acceleration.isNear(Self.metres(Self.right)) == true, "held, and sent again at the pace")
        buffered.stream(Self.left)
        #expect(await events.sample { $0.acceleration.isNear(Self.metres(Self.left)) } != nil)
        #expect(events.count { if case .opened = $0 { true } else { false } } == 1, "not opened again: still buffered")
        #expect(!log.contains { $0.contains("polling instead") })
        await handle.stop()
    }

    @Test("Scans, then silence while the sensor moved: at the silence check, an incident saying from where to where, and polled from then on")
    func stallFallsBackToPolling() async throws {
        let (buffered, handle) = try await start(raw: Self.right)
        buffered.stream(Self.portrait)
        #expect(await events.sample { $0.acceleration.isNear(Self.metres(Self.portrait)) } != nil)
        buffered.stream(nil)
        let incident = try #require(await events.first(within: 10) { if case .incident = $0 { true } else { false } })
        guard case .incident(let text) = incident else { return }
        #expect(text.hasPrefix("iio:device0: buffered capture delivered nothing for "), "\(text)")
        #expect(text.hasSuffix(" s while the sensor moved from (0.0, -9.81, 0.0) to (9.81, 0.0, 0.0); polling instead"), "\(text)")
        #expect(await events.opened(after: incident)?.mode == .polled)
        #expect(await events.sample(after: incident) { $0.acceleration.isNear(Self.metres(Self.right)) } != nil)
        #expect(!events.all.contains { if case .lost = $0 { true } else { false } }, "available throughout")
        #expect(log.contains { $0.hasPrefix("iio:device0: buffered capture delivered nothing for ") }, "logged too")
        await handle.stop()
    }

    @Test("Silent while it reads as it last said: still, not stalled, and it stays buffered; turned by the next check: polled")
    func silentWhileStill() async throws {
        let (buffered, handle) = try await start(raw: Self.portrait)
        buffered.queue(Array(repeating: Self.portrait, count: 25))
        #expect(await log.eventually("iio:device0: silent for 2.0 s, and reads as it did: still, not stalled"))
        #expect(!events.all.contains { if case .incident = $0 { true } else { false } })
        #expect(events.count { if case .opened = $0 { true } else { false } } == 1, "still buffered")
        buffered.raw.set(Self.right)
        let incident = try #require(await events.first(within: 10) { if case .incident = $0 { true } else { false } })
        guard case .incident(let text) = incident else { return }
        #expect(text.hasSuffix(" s while the sensor moved from (0.0, -9.81, 0.0) to (9.81, 0.0, 0.0); polling instead"), "\(text)")
        #expect(await events.opened(after: incident)?.mode == .polled)
        await handle.stop()
    }

    @Test("Still for a second, the device is asked for the still rate; the first scan that differs asks for the full rate again")
    func stillRate() async throws {
        let (buffered, handle) = try await start(raw: Self.portrait)
        buffered.stream(Self.portrait)
        #expect(await eventually { buffered.requested == [5] }, "still: the still rate, \(buffered.requested)")
        buffered.stream(Self.left)
        #expect(await eventually { buffered.requested == [5, 50] }, "moving: the full rate, \(buffered.requested)")
        #expect(log.contains("iio:device0: sampling_frequency 5.0 Hz requested"))
        #expect(await events.sample { $0.acceleration.isNear(Self.metres(Self.left)) } != nil)
        #expect(events.count { if case .opened = $0 { true } else { false } } == 1, "still buffered")
        await handle.stop()
    }

    @Test("Scans stamped by the wall clock, then a stall and polling: every sample on the monotonic clock, none going back")
    func oneTimeBaseAcrossFallBack() async throws {
        let (buffered, handle) = try await start(raw: Self.portrait, clock: .realtime)
        buffered.stream(Self.left)
        let stamped = try #require(await events.sample { $0.acceleration.isNear(Self.metres(Self.left)) })
        #expect(abs(stamped.time - monotonicSeconds()) < 5, "the monotonic clock, not the wall clock's \(stamped.time)")
        buffered.stream(nil)
        let incident = try #require(await events.first(within: 10) { if case .incident = $0 { true } else { false } })
        let polled = try #require(await events.sample(after: incident) { $0.acceleration.isNear(Self.metres(Self.portrait)) })
        #expect(polled.time > stamped.time, "polled after buffered: time went on")
        let times = events.samples.map(\.time)
        #expect(times == times.sorted())
        await handle.stop()
    }
}
