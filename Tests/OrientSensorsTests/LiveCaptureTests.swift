import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The accelerometer's capture in the test's own process: its thread, its choice, hot-plug and faults, on
/// accelerometers that the test lists, adds and removes (``FolderDeviceDirectory``) and whose readings it scripts
/// (``ScriptedOpener``). Read at 100 Hz, so that 1 g is learned within a second.
@Suite("Accelerometer capture, in process")
struct LiveCaptureTests {
    /// iio-sensor-proxy's polled reference: y raw -256 at scale 0.0383072 (9.81 m/s²) is portrait.
    static let scale = Vector3(0.0383072, 0.0383072, 0.0383072)
    static let portrait = Vector3(0, -256, 0)
    static let display = AccelerometerCandidate(id: "iio:device0", path: "/sys/devices/accel/iio:device0", name: "accel_3d")

    let directory: FolderDeviceDirectory
    let opener = ScriptedOpener()
    let learned = LearnedGravity()
    let events = EventLog<SensorEvent>()
    let log = RecordingLog()

    init() throws { directory = try FolderDeviceDirectory() }

    private func start() -> CaptureHandle {
        let events = self.events
        return LiveCapture.start(
            configuration: LiveSensorConfiguration(), capture: CaptureSettings(rate: 100), udev: directory, opener: opener,
            learned: learned, logger: log.logger
        ) { events.append($0) }
    }

    /// The display sensor, scaled, opened and its first reading in.
    private func displayRead() async throws -> (reader: ScriptedAccelerometer, handle: CaptureHandle) {
        let reader = opener.script(Self.display.id, name: "accel_3d", scale: Self.scale, value: Self.portrait)
        directory.add(Self.display)
        let handle = start()
        #expect(await events.sample()?.acceleration.isNear(Vector3(0, -9.8066, 0)) == true, "scaled from the first reading")
        return (reader, handle)
    }

    @Test("Opens the only accelerometer, says which and why, and delivers its readings scaled by its scale, as they change")
    func opensAndReads() async throws {
        let (reader, handle) = try await displayRead()
        let description = try #require(await events.opened())
        #expect(description.id == "iio:device0" && description.displayName == "accel_3d (iio:device0)")
        #expect(description.scaleSource == .device && description.base == nil)
        #expect(log.contains("using iio:device0: the only accelerometer"))
        reader.set(Vector3(256, 0, 0))
        #expect(await events.sample { $0.acceleration.isNear(Vector3(9.8066, 0, 0)) } != nil, "read anew, at its scale")
        #expect(!log.contains { $0.contains("treating them as 1 g") }, "a correct scale is left alone")
        await handle.stop()
        #expect(directory.subscribers == 0, "a stopped capture listens to udev no more")
    }

    @Test("No scale: nothing delivered until 1 g is learned at rest, said once in the log and to the consumer; then readings at 1 g")
    func noScale() async throws {
        // iio-sensor-proxy's buffered fixture reading, (103, -919, -385) with no scale: portrait.
        opener.script(Self.display.id, scale: nil, value: Vector3(103, -919, -385))
        directory.add(Self.display)
        let handle = start()
        let description = try #require(await events.opened())
        #expect(description.scaleSource == .learned)
        let learnedEvent = try #require(await events.first { if case .gravityLearned = $0 { true } else { false } })
        let first = try #require(await events.sample())
        let raw = Vector3(103, -919, -385)
        #expect(first.acceleration.isNear(raw * (GravityCalibrator.standardGravity / raw.length)), "1 g, along the reading")
        let learnedAt = try #require(events.all.firstIndex(of: learnedEvent))
        #expect(!events.all.prefix(learnedAt).contains { if case .sample = $0 { true } else { false } }, "nothing before 1 g is known")
        // A second's readings more, all at rest: learned once, not at every steady run.
        let later = try #require(await events.sample { $0.time > first.time + 1 })
        #expect(later.acceleration.isNear(first.acceleration))
        #expect(events.count { if case .gravityLearned = $0 { true } else { false } } == 1)
        #expect(log.count { $0 == "iio:device0 reports no scale: learning 1 g from readings at rest" } == 1)
        #expect(log.count { $0.contains("in the driver's units (it gives no scale); treating them as 1 g") } == 1)
        await handle.stop()
    }

    /// A driver whose published scale is wrong by a factor: its readings at rest are steady but far from 1 g.
    struct WrongScale: Sendable, CustomTestStringConvertible {
        var name: String
        var raw: Vector3
        var scale: Double
        /// Gravity, once corrected, in the sensor's frame.
        var gravity: Vector3
        /// As the log words them: what rest reads, and the correction.
        var reads: String
        var correction: String
        var testDescription: String { name }
    }

    static let wrongScales = [
        // iio-sensor-proxy's test suite: raw -25.6 (a decimal) at scale 10 is 256 m/s², 26.1 g.
        WrongScale(name: "x10", raw: Vector3(0, -25.6, 0), scale: 10, gravity: Vector3(0, -9.80665, 0), reads: "26.1 g", correction: "×0.0383"),
        WrongScale(name: "x1000", raw: Vector3(256, 0, 0), scale: 38.3072, gravity: Vector3(9.80665, 0, 0), reads: "1000 g", correction: "×0.001"),
        // Scaled to g, not m/s²: 1 g reads 1.0.
        WrongScale(name: "g units", raw: Vector3(-1000, 0, 0), scale: 0.001, gravity: Vector3(-9.80665, 0, 0), reads: "0.102 g", correction: "×9.81"),
        WrongScale(name: "x0.1", raw: Vector3(0, 256, 0), scale: 0.00383072, gravity: Vector3(0, 9.80665, 0), reads: "0.1 g", correction: "×10"),
    ]

    @Test("A published scale off by a factor: 1 g is learned at rest, readings corrected from then on, and the log says so once",
          arguments: wrongScales)
    func wrongScale(_ sensor: WrongScale) async throws {
        opener.script(Self.display.id, name: "accel_3d", scale: Vector3(sensor.scale, sensor.scale, sensor.scale), value: sensor.raw)
        directory.add(Self.display)
        let handle = start()
        let learnedEvent = try #require(await events.first { if case .gravityLearned = $0 { true } else { false } })
        #expect(await events.sample(after: learnedEvent) { $0.acceleration.isNear(sensor.gravity) } != nil, "corrected readings")
        let warnings = log.all.filter { $0.contains("treating them as 1 g") }
        #expect(warnings == [
            "accel_3d (iio:device0): readings at rest are \(sensor.reads) at the published scale \(GravityCorrection.format(sensor.scale, digits: 6)); "
                + "treating them as 1 g (correction \(sensor.correction))",
        ])
        await handle.stop()
    }

    @Test("Opened again by the same source (an on-demand daemon's next client), it is corrected from the first reading, without a second warning")
    func wrongScaleRemembered() async throws {
        let sensor = Self.wrongScales[0]
        opener.script(Self.display.id, name: "accel_3d", scale: Vector3(10, 10, 10), value: sensor.raw)
        directory.add(Self.display)
        let first = start()
        #expect(await events.first { if case .gravityLearned = $0 { true } else { false } } != nil)
        await first.stop()
        let stopped = events.count
        let second = start()
        let reopened = try #require(await events.first(from: stopped) { if case .opened = $0 { true } else { false } })
        let next = try #require(await events.sample(from: events.all.lastIndex(of: reopened) ?? stopped))
        #expect(next.acceleration.isNear(sensor.gravity), "corrected at once")
        #expect(log.contains("iio:device0: correcting readings ×0.0383, as learned at rest before"))
        #expect(log.count { $0.contains("treating them as 1 g") } == 1, "one warning")
        await second.stop()
    }

    @Test("Reads failing: unavailable after 5 in a row, naming the error, said once; the first good read makes it available again, without a restart")
    func readsFailing() async throws {
        let (reader, handle) = try await displayRead()
        let garbage = SensorError("parse raw \"garbage\"", errno: EINVAL, device: "iio:device0")
        reader.fail(garbage)
        let lost = SensorEvent.lost(reason: "5 reads in a row failed: \(garbage)")
        #expect(await events.first { $0 == lost } != nil)
        #expect(log.contains("\(garbage); retrying in 0.8 s (4 in a row)"), "retried with a growing backoff before")
        reader.set(Vector3(-256, 0, 0))
        let back = SensorEvent.incident("iio:device0 reads again")
        #expect(await events.first(after: lost) { $0 == back } != nil)
        let reopened = try #require(await events.opened(after: lost))
        #expect(reopened.id == "iio:device0")
        #expect(await events.sample(after: back) { $0.acceleration.isNear(Vector3(-9.8066, 0, 0)) } != nil)
        #expect(events.count { if case .lost = $0 { true } else { false } } == 1, "unavailable said once, however long it failed")
        #expect(log.count { $0.hasPrefix("using iio:device0") } == 1, "read again, not opened again")
        await handle.stop()
    }

    @Test("A device gone mid-read: lost at once, naming the error; while it cannot be opened, no sensor, saying why; then opened and read again")
    func goneMidRead() async throws {
        let (reader, handle) = try await displayRead()
        // A raw attribute removed: the read fails with ENOENT, and so does an open.
        let missing = SensorError("open in_accel_y_raw", errno: ENOENT, device: "iio:device0")
        opener.failOpening("iio:device0", with: SensorError("iio_device_find_channel", errno: ENOENT, device: "iio:device0"))
        reader.fail(missing)
        let lost = SensorEvent.lost(reason: "\(missing)")
        #expect(await events.first { $0 == lost } != nil)
        let cannot = SensorEvent.noSensor(reason: "cannot open iio:device0: iio:device0: iio_device_find_channel failed: No such file or directory (errno 2)")
        #expect(await events.first(after: lost) { $0 == cannot } != nil)
        #expect(!log.contains { $0.contains("in a row") }, "not retried as a failing read")
        reader.set(Vector3(0, 256, 0))
        opener.failOpening("iio:device0", with: nil)
        #expect(await events.opened(after: cannot) != nil, "opened again on its own, with no word from udev")
        #expect(await events.sample(after: cannot) { $0.acceleration.isNear(Vector3(0, 9.8066, 0)) } != nil)
        #expect(log.contains("sensor lost: \(missing)"))
        await handle.stop()
    }

    @Test("udev's remove of the open sensor closes it; its add brings it back, opened again without a restart")
    func hotPlug() async throws {
        let (reader, handle) = try await displayRead()
        directory.remove(Self.display.id)
        let lost = SensorEvent.lost(reason: "iio:device0 was removed")
        #expect(await events.first { $0 == lost } != nil)
        let none = SensorEvent.noSensor(reason: "no IIO accelerometer found")
        #expect(await events.first(after: lost) { $0 == none } != nil)
        reader.set(Vector3(-256, 0, 0))
        directory.add(Self.display)
        #expect(await events.opened(after: lost)?.id == "iio:device0")
        #expect(await events.sample(after: none) { $0.acceleration.isNear(Vector3(-9.8066, 0, 0)) } != nil)
        #expect(log.count { $0.hasPrefix("using iio:device0") } == 2)
        await handle.stop()
    }

    @Test("No accelerometer: no sensor, said once however many other devices come; the one added is opened and read")
    func waitsForOne() async throws {
        let handle = start()
        let none = SensorEvent.noSensor(reason: "no IIO accelerometer found")
        #expect(await events.first { $0 == none } != nil)
        try directory.add("iio:device1", name: "als", attributes: ["in_illuminance_raw": "40"])
        try directory.add("event3", subsystem: "input", attributes: [:])
        // Each event makes it look again, and find none again.
        #expect(await log.eventually("udev add event3"))
        opener.script(Self.display.id, scale: Self.scale, value: Self.portrait)
        directory.add(Self.display)
        #expect(await events.opened()?.id == "iio:device0")
        #expect(await events.sample { $0.acceleration.isNear(Vector3(0, -9.8066, 0)) } != nil)
        #expect(events.count { if case .noSensor = $0 { true } else { false } } == 1)
        #expect(log.count { $0 == "no IIO accelerometer found; waiting for a sensor" } == 1)
        await handle.stop()
    }

    /// A convertible's keyboard-base accelerometer: x raw 256 at the display's scale.
    static let base = AccelerometerCandidate(
        id: "iio:device0", path: "/sys/devices/accel/iio:device0", name: "accel_base", locationProperty: "base")
    static let lid = AccelerometerCandidate(
        id: "iio:device1", path: "/sys/devices/accel/iio:device1", name: "accel_3d", label: "accel-display")

    /// A base sensor, then a display sensor beside it, both opened and their first pair of readings in.
    private func convertibleRead() async throws -> (base: ScriptedAccelerometer, handle: CaptureHandle) {
        let base = opener.script(Self.base.id, name: "accel_base", scale: Self.scale, value: Vector3(256, 0, 0))
        opener.script(Self.lid.id, name: "accel_3d", scale: Self.scale, value: Self.portrait)
        directory.add(Self.base)
        let handle = start()
        let alone = SensorEvent.noSensor(reason: "only a base (keyboard) accelerometer found; name it as the device to use it anyway")
        #expect(await events.first { $0 == alone } != nil, "a base sensor alone is not used")
        directory.add(Self.lid)
        #expect(await events.sample { $0.base?.isNear(Vector3(9.8066, 0, 0)) == true && $0.acceleration.isNear(Vector3(0, -9.8066, 0)) } != nil)
        return (base, handle)
    }

    @Test("A display and a base accelerometer: the display one is chosen, the base read beside it, each reading paired with the base's")
    func displayAndBase() async throws {
        let (_, handle) = try await convertibleRead()
        let description = try #require(await events.opened())
        #expect(description.id == "iio:device1")
        #expect(description.base?.id == "iio:device0" && description.base?.displayName == "accel_base (iio:device0)")
        #expect(description.base?.scale == Self.scale)
        #expect(log.contains("using iio:device1: the display accelerometer (of 2)"))
        #expect(log.contains("base accelerometer iio:device0: mount matrix 1, 0, 0; 0, 1, 0; 0, 0, 1 (from none (identity))"))
        await handle.stop()
    }

    @Test("The base removed: base lost, the display read on alone; the base added back beside it: opened, and said again with it")
    func baseRemovedAndAdded() async throws {
        let (_, handle) = try await convertibleRead()
        directory.remove(Self.base.id)
        let lost = SensorEvent.baseLost(reason: "iio:device0 was removed")
        #expect(await events.first { $0 == lost } != nil)
        #expect(await events.sample(after: lost) { $0.base == nil } != nil, "the display reads on")
        #expect(log.contains("base accelerometer lost: iio:device0 was removed; the display sensor alone turns the screen"))
        #expect(!events.all.contains { if case .lost = $0 { true } else { false } }, "the display is not lost")
        directory.add(Self.base)
        let reopened = try #require(await events.opened(after: lost))
        #expect(reopened.id == "iio:device1" && reopened.base?.id == "iio:device0")
        #expect(await events.sample(after: lost) { $0.base != nil } != nil, "paired again")
        await handle.stop()
    }

    @Test("The base failing: base lost after 5 in a row, the display read on alone")
    func baseFailing() async throws {
        let (base, handle) = try await convertibleRead()
        let garbage = SensorError("parse raw \"garbage\"", errno: EINVAL, device: "iio:device0")
        base.fail(garbage)
        let lost = SensorEvent.baseLost(reason: "\(garbage)")
        #expect(await events.first { $0 == lost } != nil)
        #expect(log.contains("base accelerometer: \(garbage) (4 in a row)"), "retried first")
        #expect(await events.sample(after: lost) { $0.base == nil && $0.acceleration.isNear(Vector3(0, -9.8066, 0)) } != nil)
        #expect(!events.all.contains { if case .lost = $0 { true } else { false } }, "the display is not lost")
        await handle.stop()
    }

    @Test("The base gone mid-read: base lost at once, not retried; the display read on alone")
    func baseGone() async throws {
        let (base, handle) = try await convertibleRead()
        let gone = SensorError("read", errno: ENODEV, device: "iio:device0")
        base.fail(gone)
        let lost = SensorEvent.baseLost(reason: "\(gone)")
        #expect(await events.first { $0 == lost } != nil)
        #expect(!log.contains { $0.hasPrefix("base accelerometer: \(gone)") }, "not retried")
        #expect(await events.sample(after: lost) { $0.base == nil && $0.acceleration.isNear(Vector3(0, -9.8066, 0)) } != nil)
        await handle.stop()
    }

    @Test("A lid switch that cannot be opened is said once; shut and flat are then told apart by the hinge, and the sensor is read")
    func lidSwitchUnreadable() async throws {
        directory.setLidSwitchNode("/nonexistent/event7")
        let (_, handle) = try await displayRead()
        #expect(log.count { $0 == "lid switch: open /nonexistent/event7: No such file or directory; shut and folded flat are told apart by the last hinge angle" } == 1)
        #expect(!events.all.contains { if case .lid = $0 { true } else { false } })
        await handle.stop()
    }
}

extension EventLog where Event == SensorEvent {
    /// The first `.opened` after `after` (or at all), from event `index` on, with its description.
    func opened(after: SensorEvent? = nil, from index: Int = 0) async -> SensorDescription? {
        let event = await first(after: after, from: index) { if case .opened = $0 { true } else { false } }
        guard case .opened(let description) = event else { return nil }
        return description
    }

    /// The first sample after `after` (or at all), from event `index` on, that `matches`.
    func sample(
        after: SensorEvent? = nil, from index: Int = 0, where matches: @escaping (AccelSample) -> Bool = { _ in true }
    ) async -> AccelSample? {
        let event = await first(after: after, from: index) { if case .sample(let s) = $0 { matches(s) } else { false } }
        guard case .sample(let sample) = event else { return nil }
        return sample
    }

    /// The samples delivered so far.
    var samples: [AccelSample] { all.compactMap { if case .sample(let s) = $0 { s } else { nil } } }
}

extension RecordingLog {
    /// Whether the log has `line`, waiting up to 5 s for it.
    func eventually(_ line: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !contains(line) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

extension Vector3 {
    /// Within 0.01 m/s² on each axis.
    func isNear(_ other: Vector3) -> Bool {
        abs(x - other.x) < 0.01 && abs(y - other.y) < 0.01 && abs(z - other.z) < 0.01
    }
}
