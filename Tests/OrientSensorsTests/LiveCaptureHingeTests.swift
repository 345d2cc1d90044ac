import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Testing

/// The capture with a kernel hinge sensor beside the display's accelerometer, in the test's own process: the
/// display scripted (``ScriptedOpener``), the hinge sensor a folder laid out as its driver lays out sysfs
/// (``FolderDeviceDirectory``), whose value the test changes.
@Suite("Accelerometer capture with a kernel hinge sensor, in process")
struct LiveCaptureHingeTests {
    static let display = LiveCaptureTests.display
    static let intelID = "iio:device4"
    static let crosID = "iio:device5"

    let directory: FolderDeviceDirectory
    let opener = ScriptedOpener()
    let events = EventLog<SensorEvent>()
    let log = RecordingLog()

    init() throws { directory = try FolderDeviceDirectory() }

    private func start() -> CaptureHandle {
        let events = self.events
        return LiveCapture.start(
            configuration: LiveSensorConfiguration(), capture: CaptureSettings(rate: 100), udev: directory, opener: opener,
            learned: LearnedGravity(), logger: log.logger
        ) { events.append($0) }
    }

    private func addIntel(raw: String) throws {
        try directory.add(
            Self.intelID, name: "hinge",
            attributes: [
                "in_angl0_raw": raw, "in_angl1_raw": "30", "in_angl2_raw": "330", "in_angl_scale": HingeSensorTests.degree,
                "in_angl_offset": "0", "in_angl0_label": "hinge",
            ])
    }

    private func addCros(raw: String) throws {
        try directory.add(Self.crosID, name: "cros-ec-lid-angle", attributes: ["in_angl_raw": raw])
    }

    /// The display sensor opened and reading portrait.
    private func startDisplay() -> CaptureHandle {
        opener.script(Self.display.id, name: "accel_3d", scale: LiveCaptureTests.scale, value: LiveCaptureTests.portrait)
        directory.add(Self.display)
        return start()
    }

    private func isNear(_ angle: KernelHingeAngle?, _ degrees: Double) -> Bool {
        angle?.degrees.map { abs($0 - degrees) < 0.01 } ?? false
    }

    @Test("Intel's hinge: opened with the display, named in its description, its angle in each sample as the file changes")
    func intel() async throws {
        try addIntel(raw: "104")
        let handle = startDisplay()
        let description = try #require(await events.opened())
        #expect(description.hinge == HingeSensorDescription(id: Self.intelID, name: "hinge", path: "\(directory.root)/\(Self.intelID)"))
        #expect(await events.sample { isNear($0.hinge, 104) } != nil)
        try directory.set("in_angl0_raw", of: Self.intelID, to: "350")
        #expect(await events.sample { isNear($0.hinge, 350) } != nil, "read anew")
        #expect(log.contains("hinge sensor iio:device4 (hinge): its angle is the hinge's"))
        await handle.stop()
    }

    @Test("cros-ec-lid-angle: 500 pairs the samples with unknown, logged once a spell; the next angle is read again")
    func crosUnreliable() async throws {
        try addCros(raw: "200")
        let handle = startDisplay()
        #expect(await events.sample { isNear($0.hinge, 200) } != nil)
        try directory.set("in_angl_raw", of: Self.crosID, to: "500")
        let unknown = try #require(await events.sample { $0.hinge == .unknown })
        // Half a second of 500: still unknown, and said once.
        #expect(await events.sample { $0.time > unknown.time + 0.5 && $0.hinge == .unknown } != nil)
        #expect(log.count { $0.contains("no angle: the EC cannot tell the angle (500)") } == 1)
        try directory.set("in_angl_raw", of: Self.crosID, to: "120")
        #expect(await events.sample { isNear($0.hinge, 120) } != nil)
        #expect(!events.all.contains { if case .hingeLost = $0 { true } else { false } }, "500 is not a failure")
        await handle.stop()
    }

    @Test("A hinge sensor removed is lost, said once; the display's samples go on without an angle")
    func removed() async throws {
        try addCros(raw: "200")
        let handle = startDisplay()
        #expect(await events.sample { isNear($0.hinge, 200) } != nil)
        directory.remove(Self.crosID)
        let lost = try #require(await events.first { if case .hingeLost = $0 { true } else { false } })
        #expect(lost == .hingeLost(reason: "iio:device5 was removed"))
        #expect(await events.sample(after: lost) { $0.hinge == nil } != nil)
        #expect(events.count { if case .hingeLost = $0 { true } else { false } } == 1)
        await handle.stop()
    }

    @Test("Unreadable five times in a row: lost, the reads in between unknown")
    func unreadable() async throws {
        try addCros(raw: "200")
        let handle = startDisplay()
        #expect(await events.sample { isNear($0.hinge, 200) } != nil)
        // A folder where the attribute was: reading it fails with EISDIR, whoever runs the test.
        let path = "\(directory.root)/\(Self.crosID)/in_angl_raw"
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let lost = try #require(await events.first { if case .hingeLost = $0 { true } else { false } })
        let index = try #require(events.all.firstIndex(of: lost))
        let before = events.all.prefix(index).compactMap { if case .sample(let s) = $0 { s.hinge } else { nil } }
        #expect(before.suffix(4).allSatisfy { $0 == .unknown }, "failed reads pair unknown until the sensor is given up")
        #expect(log.count { $0.contains("hinge sensor: ") && $0.contains("in a row") } == 4)
        #expect(await events.sample(after: lost) { $0.hinge == nil } != nil)
        await handle.stop()
    }

    @Test("A hinge sensor plugged beside an open display sensor is opened, and the description said again")
    func pluggedLater() async throws {
        let handle = startDisplay()
        let first = try #require(await events.opened())
        #expect(first.hinge == nil)
        #expect(await events.sample { $0.hinge == nil } != nil)
        let beforePlug = events.count
        try addIntel(raw: "180")
        let again = try #require(await events.opened(from: beforePlug))
        #expect(again.hinge?.id == Self.intelID)
        #expect(await events.sample { isNear($0.hinge, 180) } != nil)
        await handle.stop()
    }

    @Test("With the base not to be read (calibrate), no hinge sensor is opened either")
    func notRead() async throws {
        try addCros(raw: "200")
        opener.script(Self.display.id, name: "accel_3d", scale: LiveCaptureTests.scale, value: LiveCaptureTests.portrait)
        directory.add(Self.display)
        let events = self.events
        let handle = LiveCapture.start(
            configuration: LiveSensorConfiguration(readsBase: false), capture: CaptureSettings(rate: 100), udev: directory,
            opener: opener, learned: LearnedGravity(), logger: log.logger
        ) { events.append($0) }
        #expect(try #require(await events.opened()).hinge == nil)
        #expect(await events.sample() != nil)
        #expect(events.samples.allSatisfy { $0.hinge == nil })
        await handle.stop()
    }
}
