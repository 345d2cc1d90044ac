import Foundation
import Logging
import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The HID hub's light sensor and compass read through their buffers (``IIOBuffered``) by a capture in the test's
/// own process: devices in a folder (``FolderDeviceDirectory``), scans, read failures and the silence's clock
/// scripted where libiio's buffer would be (``ScriptedBuffers``). Each is read every 20 ms. libiio's own open (the
/// trigger, the node) is HIDSensorTests' (umockdev).
@Suite("Buffered HID sensor capture, in process")
struct BufferedReadingCaptureTests {
    typealias Light = IIOBuffered<HIDLight, ScriptedBuffers>
    typealias Compass = IIOBuffered<HIDCompass, ScriptedBuffers>

    /// The hub's light sensor as hid-sensor-als makes it: raw × 0.1 lux.
    static func light(raw: String = "0", scale: String = "0.1", type: String = "le:s32/32>>0") -> [String: String] {
        [
            "in_intensity_both_raw": raw, "in_intensity_scale": scale, "in_intensity_offset": "0",
            "scan_elements/in_intensity_both_en": "0", "scan_elements/in_intensity_both_index": "0",
            "scan_elements/in_intensity_both_type": type,
        ]
    }

    /// The hub's compass as hid-sensor-magn-3d makes it: raw × 0.1°.
    static func compass(raw: String) -> [String: String] {
        [
            "in_rot_from_north_magnetic_tilt_comp_raw": raw, "in_rot_scale": "0.1",
            "scan_elements/in_rot_from_north_magnetic_tilt_comp_en": "0",
            "scan_elements/in_rot_from_north_magnetic_tilt_comp_index": "0",
            "scan_elements/in_rot_from_north_magnetic_tilt_comp_type": "le:s32/32>>0",
        ]
    }

    let directory: FolderDeviceDirectory
    let events = EventLog<ReadingEvent>()
    let log = RecordingLog()
    let script = BufferScript()

    init() throws { directory = try FolderDeviceDirectory() }

    /// Adds `attributes` as iio:device1, its buffer scripted by ``script``.
    @discardableResult
    private func add(
        _ attributes: [String: String], name: String = "als", types: Set<String> = ["iio-buffer-als"]
    ) throws -> IIODeviceFacts {
        ScriptedBuffers.register(script, for: "\(directory.root)/iio:device1")
        return try directory.add("iio:device1", name: name, types: types, attributes: attributes)
    }

    /// Starts a capture of `driver`'s kind, read every 20 ms; `next` answers each event (the light filter asks for a
    /// fresh read of a reading it doubts).
    private func start(
        _ driver: any PolledReadingDriver.Type, next: @escaping @Sendable (ReadingEvent) -> NextRead = { _ in .onSchedule }
    ) -> CaptureHandle {
        let source = PolledReadingSource([driver], directory: directory, logger: log.logger)
        let events = self.events
        return source.start(LiveSettings(SourceSettings(interval: 0.02))) { event in
            events.append(event)
            return next(event)
        }
    }

    private var readings: [Reading] {
        events.all.compactMap { if case .reading(let reading) = $0 { reading } else { nil } }
    }

    private static func lux(_ level: Double) -> ReadingEvent { .reading(.light(level: level, unit: .lux)) }

    @Test(
        "A buffer that gives no scan: nothing until the first silence check, which holds the raw reading; once the raw reading is elsewhere, it is polled, said once"
    )
    func silentThenPolled() async throws {
        let device = try add(Self.light(raw: "420"))
        let handle = start(Light.self)
        #expect(await events.first { if case .opened = $0 { true } else { false } } != nil)
        #expect(await script.waitForDrains(3))
        #expect(readings.isEmpty, "no scan, and no check before 2 s of silence")
        // A hub that reports only on change, already on: the raw attribute, read at the first check, holds.
        script.now = 2
        #expect(await events.first { $0 == Self.lux(42) } != nil, "420 raw at scale 0.1")
        #expect(await script.waitForDrains(3))
        #expect(readings.allSatisfy { $0 == .light(level: 42, unit: .lux) }, "held: \(readings)")
        // The room changes and the buffer says nothing: the next check reads the raw attribute elsewhere.
        try directory.set("in_intensity_both_raw", of: "iio:device1", to: "1000")
        script.now = 10
        let rawPath = device.attributePath("in_intensity_both_raw")
        let stall = "iio:device1: /dev/iio:device1 sent nothing for 8.0 s while \(rawPath) went from 42.0 to 100.0; reading it instead"
        #expect(await events.first { $0 == .incident(stall) } != nil)
        #expect(await events.first { $0 == Self.lux(100) } != nil)
        // Polled from then on: a new raw value is read at the next interval, scans or not.
        try directory.set("in_intensity_both_raw", of: "iio:device1", to: "2000")
        script.send(50)
        #expect(await events.first { $0 == Self.lux(200) } != nil)
        #expect(events.count { if case .incident = $0 { true } else { false } } == 1, "said once")
        #expect(log.count { $0 == stall } == 1)
        await handle.stop()
    }

    @Test("The compass: its raw heading held while the buffer is silent, then each scan's heading in degrees")
    func compassHeading() async throws {
        try add(Self.compass(raw: "900"), name: "magn_3d", types: ["iio-buffer-compass"])
        let handle = start(Compass.self)
        let opened = try #require(await events.first { if case .opened = $0 { true } else { false } })
        #expect(opened == .opened(ReadingSensorDescription(
            kind: .compass, id: "iio:device1", name: "magn_3d", interval: 0.02, foundBy: "IIO_SENSOR_PROXY_TYPE iio-buffer-compass")))
        script.now = 2
        #expect(await events.first { $0 == .reading(.compass(heading: 90)) } != nil, "900 raw at scale 0.1")
        script.send(1805)
        #expect(await events.first { $0 == .reading(.compass(heading: 180.5)) } != nil)
        await handle.stop()
    }

    @Test("None there: said in the log; one untagged is found by its scan element, and read through its buffer")
    func untaggedByScanElement() async throws {
        let handle = start(Light.self)
        #expect(await events.first { $0 == .noSensor(reason: "no light sensor found") } != nil)
        #expect(log.contains("no light sensor found; waiting for one"))
        try add(Self.light(), types: [])
        script.send(500)
        #expect(await events.first { $0 == Self.lux(50) } != nil)
        #expect(log.contains("light sensor als (iio:device1): found by scan element in_intensity_both; read every 0.02 s"))
        await handle.stop()
    }

    @Test("Garbage in the scan element type: not opened, said naming the file")
    func garbageType() async throws {
        let device = try add(Self.light(type: "le:banana"))
        let handle = start(Light.self)
        let file = "\(device.path)/scan_elements/in_intensity_both_type"
        let reason =
            "cannot open the light sensor iio:device1: \(file) reads \"le:banana\", not a scan element type such as le:u32/32>>0"
        #expect(await events.first { $0 == .noSensor(reason: reason) } != nil)
        #expect(log.contains(reason + "; waiting for one"))
        #expect(script.drains == 0)
        await handle.stop()
    }

    @Test(
        "A scale of 0 counts as 1, said naming the file; a buffer failing mid-read is said once naming the node, the last reading stays; udev's remove: lost"
    )
    func scaleOfZeroAndFailingNode() async throws {
        let device = try add(Self.light(scale: "0"))
        script.send(42)
        let handle = start(Light.self)
        #expect(await events.first { $0 == Self.lux(42) } != nil)
        let scale = "iio:device1: \(device.attributePath("in_intensity_scale")) reads 0; using 1, as iio-sensor-proxy does"
        #expect(log.count { $0 == scale } == 1)
        // The node ends under the reader before udev says the device is gone.
        script.fail(EIO)
        let problem = "light sensor iio:device1: /dev/iio:device1: read failed: Input/output error (errno 5)"
        #expect(await events.first { $0 == .incident(problem) } != nil)
        let read = readings.count
        #expect(await script.waitForDrains(10))
        #expect(events.count { $0 == .incident(problem) } == 1, "said once, not at every read")
        #expect(log.count { $0 == problem + "; the last reading stays until a read succeeds" } == 1)
        #expect(readings.count == read, "the last reading stands")
        directory.remove("iio:device1")
        #expect(await events.first { $0 == .lost(reason: "iio:device1 was removed") } != nil)
        #expect(log.contains("light sensor lost: iio:device1 was removed"))
        await handle.stop()
    }

    @Test(
        "A first scan of 0 that the consumer doubts (the light filter, after a resume) is read again from the sensor itself, not from the buffer"
    )
    func doubtedZeroReadFresh() async throws {
        // The room as the sensor itself reads it (its raw attribute): 90 lux; the hub wakes with one scan of 0.
        try add(Self.light(raw: "900"))
        script.send(0)
        let doubted = Mutex(false)
        let handle = start(Light.self) { event in
            guard event == Self.lux(0), !doubted.withLock({ $0 }) else { return .onSchedule }
            doubted.withLock { $0 = true }
            return .fresh(within: 0)
        }
        #expect(await events.first { $0 == Self.lux(90) } != nil, "read from the sensor itself")
        #expect(readings.prefix(2) == [.light(level: 0, unit: .lux), .light(level: 90, unit: .lux)], "\(readings)")
        await handle.stop()
    }
}
