import Foundation
import OrientProtocol
import Testing

/// The real daemon reading emulated IIO accelerometers in buffered mode: scans written to the device node.
@Suite("Buffered sensors under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct BufferedSensorTests {
    /// A buffered accelerometer in umockdev's text form; its /dev node is a PTY fed by the test.
    static func device(format: String, timestamp: Bool, scale: String?, raw: (Int, Int, Int) = (0, 0, 0)) -> String {
        var lines = [
            "P: /devices/platform/accel/iio:device0", "N: iio:device0", "E: SUBSYSTEM=iio",
            "E: DEVNAME=/dev/iio:device0", "A: name=accel_3d\\n",
            "A: in_accel_x_raw=\(raw.0)\\n", "A: in_accel_y_raw=\(raw.1)\\n", "A: in_accel_z_raw=\(raw.2)\\n",
            "A: buffer/enable=0\\n", "A: buffer/length=16\\n",
        ]
        if let scale { lines.append("A: in_accel_scale=\(scale)\\n") }
        for (index, axis) in ["x", "y", "z"].enumerated() {
            lines += [
                "A: scan_elements/in_accel_\(axis)_en=0\\n", "A: scan_elements/in_accel_\(axis)_index=\(index)\\n",
                "A: scan_elements/in_accel_\(axis)_type=\(format)\\n",
            ]
        }
        if timestamp {
            lines += [
                "A: scan_elements/in_timestamp_en=0\\n", "A: scan_elements/in_timestamp_index=3\\n",
                "A: scan_elements/in_timestamp_type=le:s64/64>>0\\n",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The emulated device node the scans are written to (umockdev wants the /dev path, not the sysfs one).
    static let path = "/dev/iio:device0"
    static let sysfsPath = "/sys/devices/platform/accel/iio:device0"

    /// One little-endian 16-bit storage word per axis, as hex.
    static func words(_ values: [Int]) -> String {
        values.map { value in
            let word = UInt16(truncatingIfNeeded: value)
            return String(format: "%02x%02x", word & 0xFF, word >> 8)
        }.joined()
    }

    private func run(_ testbed: UmockdevTestbed) throws -> DaemonHarness {
        let daemon = try DaemonHarness(["--sampling", "always"], environment: testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    /// What the capture does with the scans (formats, 1 g learned, time bases, the fall back) is LiveCaptureTests',
    /// LiveCaptureBufferedTests', ScanFormatTests' and SampleTimeBaseTests'; here, libiio's buffer under them.
    @Test("le:s16/16>>0, no timestamp, no trigger set: iio-sensor-proxy's reading (103, -919, -385), no scale, is portrait; the device's own trigger is set")
    func referenceReading() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(
            Self.device(format: "le:s16/16>>0", timestamp: false, scale: nil) + "A: trigger/current_trigger=\\n\n")
        try testbed.describe("P: /devices/trigger0\nE: SUBSYSTEM=iio\nA: name=accel_3d-dev0\\n\n")
        let daemon = try run(testbed)
        try testbed.stream(Self.path, scanHex: Self.words([103, -919, -385]), count: 200, rate: 50)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered")
        #expect(daemon.log.contains("learning 1 g"))
        let current = try String(
            contentsOfFile: testbed.root + "/sys/devices/platform/accel/iio:device0/trigger/current_trigger", encoding: .utf8)
        #expect(current.hasPrefix("accel_3d-dev0"))
    }

    @Test("le:s12/16>>4 with junk in the low bits, a timestamp channel and wall-clock stamps: landscape-left, at monotonic times")
    func shiftedWithTimestamp() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(
            Self.device(format: "le:s12/16>>4", timestamp: true, scale: "0.0383072") + "A: current_timestamp_clock=realtime\\n\n")
        let daemon = try run(testbed)
        // (-256, 0, 0) shifted left by 4, with 0xF in the 4 bits below the value; then 2 padding words to
        // align the 64-bit timestamp at byte 8.
        let scan = Self.words([(-256 << 4) | 0xF, 0xF, 0xF]) + "0000" + "{t}"
        try testbed.stream(Self.path, scanHex: scan, count: 200, rate: 50, clock: "realtime")
        let state = try daemon.poll { $0.device == "landscape-left" }
        #expect(state?.device == "landscape-left", "\(daemon.log)")
        let t = try #require(state?.t)
        #expect(abs(t - monotonicNow()) < 10, "t \(t) on the monotonic clock, not the wall clock's")
    }

    @Test("A buffer that delivers nothing: its raw reading is published and held; once it reads elsewhere, it is polled")
    func stallFallsBackToPolling() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(Self.device(format: "le:s16/16>>0", timestamp: false, scale: "0.0383072", raw: (0, 256, 0)))
        let daemon = try run(testbed)
        // Read from the raw attributes when the buffer opened, and held while it says nothing.
        let state = try daemon.poll { $0.device == "portrait-upside-down" }
        #expect(state?.device == "portrait-upside-down", "\(daemon.log)")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered")
        // The sensor turns; its buffer still says nothing: the next silence check reads it, and it is polled.
        try testbed.set(Self.sysfsPath, "in_accel_y_raw", "-256")
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        let log = daemon.log
        #expect(log.contains("buffered capture delivered nothing for "), "\(log)")
        #expect(log.contains("while the sensor moved from (0.0, 9.81, 0.0) to (0.0, -9.81, 0.0); polling instead"), "\(log)")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.mode == "polled" }
        #expect(status?.sensorInfo?.mode == "polled")
        // The stall is counted in status; how orientctl status and orientd doctor show it is
        // OrientctlRepliesTests.incidents' and DoctorReportTests.runningDaemon's.
        let incidents = try #require(status?.statusReport?.incidents?.first, "\(String(describing: status))")
        #expect(incidents.sensor == "accelerometer" && incidents.count == 1, "\(incidents)")
        #expect(incidents.last.hasSuffix("polling instead"), "\(incidents)")
    }

    /// The daemon's rates asked of a buffered device that takes a sampling frequency, as its sysfs attribute shows
    /// them: the full rate, the still rate, the rest rate. That the capture asks for the pace's rate, and when, is
    /// `LiveCaptureBufferedTests.stillRate` and `SamplingPaceTests`.
    @Test("Still for 10 s, a buffered device is asked for the rest rate (2 Hz); the first scan that differs asks for the full rate")
    func restRate() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(
            Self.device(format: "le:s16/16>>0", timestamp: false, scale: "0.0383072") + "A: sampling_frequency=100\\n\n")
        let attribute = testbed.root + "/sys/devices/platform/accel/iio:device0/sampling_frequency"
        let requested = {
            (try? String(contentsOfFile: attribute, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let daemon = try run(testbed)
        #expect(waitFor { requested() == 50 }, "the configured rate on opening: \(String(describing: requested()))")
        // 30 s of the same scan, longer than the waits below even on a busy machine (a stream cannot be stopped, and a
        // buffer that goes silent is read by polling instead): still after about a second, at rest 10 s later.
        try testbed.stream(Self.path, scanHex: Self.words([0, -256, 0]), count: 1500, rate: 50)
        #expect(waitFor(timeout: 6) { requested() == 5 }, "still: the still rate, \(String(describing: requested()))")
        let still = Date()
        #expect(waitFor(timeout: 14) { requested() == 2 }, "at rest: the rest rate, \(String(describing: requested()))\n\(daemon.log)")
        #expect(Date().timeIntervalSince(still) >= 8, "not before 10 s still (less the still rate's own second)")
        // Other scans between the still ones: the device moves.
        try testbed.stream(Self.path, scanHex: Self.words([-256, 0, 0]), count: 200, rate: 50)
        #expect(waitFor(timeout: 6) { requested() == 50 }, "moving: the full rate again, \(String(describing: requested()))\n\(daemon.log)")
        #expect(!daemon.log.contains("polling instead"), "\(daemon.log)")
    }

    /// A buffer-only accelerometer (scan elements, no raw attributes) with no device node, as iio-sensor-proxy's own
    /// suite emulates one: 16-bit values in 32-bit words whose upper half is junk, then a timestamp.
    static let bufferOnly: String = {
        var lines = [
            "P: /devices/platform/accel/iio:device0", "E: SUBSYSTEM=iio", "A: name=accel_3d\\n",
            "A: in_accel_scale=0.0383072\\n", "A: buffer/enable=0",
        ]
        for (index, element) in ["accel_x", "accel_y", "accel_z", "timestamp"].enumerated() {
            let on = element == "timestamp" ? 1 : 0
            let type = element == "timestamp" ? "le:s64/64>>0" : "le:s16/32>>0"
            lines += ["_en=\(on)", "_index=\(index)", "_type=\(type)"].map { "A: scan_elements/in_\(element)\($0)" }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }()

    /// One 24-byte scan of `bufferOnly`: each axis in the low half of its word, 0xFC69 above it, then 4 bytes of
    /// padding and a timestamp (which the reader ignores).
    static func scan(_ values: (Int, Int, Int)) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [values.0, values.1, values.2] {
            let word = UInt16(truncatingIfNeeded: value)
            bytes += [UInt8(word & 0xFF), UInt8(word >> 8), 0x69, 0xFC]
        }
        return bytes + [0, 0, 0, 0] + [0xFF, 0, 0, 0, 0, 0, 0, 0]
    }
}

/// A buffer-only accelerometer as the D-Bus facade finds it: present before any claim, its scan elements enabled
/// and its buffer left off until a claim, as iio-sensor-proxy 3.9 leaves them.
@Suite(
    "Buffer-only accelerometers on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct BufferOnlyDiscoveryTests {
    /// What the reader does with the data file (the last complete scan, a missing file, buffer/enable while open)
    /// is ScanFileAccelerometerTests'; here, the daemon finding the device under umockdev and serving it.
    @Test("Found by its scan elements alone: HasAccelerometer before any claim, scan elements on, buffer off; a claim reads it, buffered")
    func foundBeforeClaim() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bus = try PrivateBus(folder: folder)
        let testbed = try UmockdevTestbed()
        try testbed.describe(BufferedSensorTests.bufferOnly)
        try Data(BufferedSensorTests.scan((256, 0, 0))).write(to: URL(fileURLWithPath: testbed.root + "/iio-dev-data.bin"))
        let daemon = try DaemonHarness(
            ["--dbus", "--rate", "50"], folder: folder, environment: testbed.environment.merging(bus.environment) { $1 })
        try daemon.waitUntilListening()
        let client = try LineProcess(UmockdevTestbed.python, [DBusFacadeTests.clientScript], environment: bus.environment)
        #expect(client.waitForLine { $0.hasPrefix("ready ") } != nil)
        let sysfs = testbed.root + "/sys/devices/platform/accel/iio:device0"
        func attribute(_ name: String) -> String? { try? String(contentsOfFile: sysfs + "/" + name, encoding: .utf8) }
        #expect(waitFor { bus.property("HasAccelerometer") == "b true" }, "\(daemon.log)")
        #expect(waitFor { attribute("scan_elements/in_accel_z_en") == "1" }, "enabled when found: \(daemon.log)")
        #expect(["x", "y"].allSatisfy { attribute("scan_elements/in_accel_\($0)_en") == "1" })
        #expect(attribute("buffer/enable") == "0", "off until claimed")
        #expect(bus.property("AccelerometerOrientation") == "s \"undefined\"")

        #expect(client.ask("claim") == "ok", "\(daemon.log)")
        #expect(bus.property("AccelerometerOrientation") == "s \"left-up\"", "decided by the first reading: \(daemon.log)")
        #expect(attribute("buffer/enable") == "1")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered")
        client.kill()
    }
}
