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

    @Test("le:s16/16>>0 without a timestamp: iio-sensor-proxy's reading (103, -919, -385), no scale, is portrait")
    func referenceReading() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(Self.device(format: "le:s16/16>>0", timestamp: false, scale: nil))
        let daemon = try run(testbed)
        try testbed.stream(Self.path, scanHex: Self.words([103, -919, -385]), count: 200, rate: 50)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered")
        #expect(daemon.log.contains("learning 1 g"))
    }

    @Test("le:s12/16>>4 with junk in the low bits, and a timestamp channel: landscape-left")
    func shiftedWithTimestamp() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(Self.device(format: "le:s12/16>>4", timestamp: true, scale: "0.0383072"))
        let daemon = try run(testbed)
        // (-256, 0, 0) shifted left by 4, with 0xF in the 4 bits below the value; then 2 padding words to
        // align the 64-bit timestamp at byte 8.
        let scan = Self.words([(-256 << 4) | 0xF, 0xF, 0xF]) + "0000" + "{t}"
        try testbed.stream(Self.path, scanHex: scan, count: 200, rate: 50)
        let state = try daemon.poll { $0.device == "landscape-left" }
        #expect(state?.device == "landscape-left", "\(daemon.log)")
        // The device names no clock: the stamps (from 1.0 s on) are anchored on the monotonic clock when read.
        let t = try #require(state?.t)
        #expect(abs(t - monotonicNow()) < 10, "t \(t) on the monotonic clock, not the stamps' own")
    }

    @Test("Wall-clock stamps, then a stall and polling: published times stay on one clock and never go back")
    func oneTimeBaseAcrossFallBack() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(
            Self.device(format: "le:s16/16>>0", timestamp: true, scale: "0.0383072", raw: (0, -256, 0))
                + "A: current_timestamp_clock=realtime\\n\n")
        let daemon = try run(testbed)
        let subscriber = try LineClient(path: daemon.socket)
        _ = subscriber.request(#""op":"subscribe""#)
        // The raw attributes (portrait) read when the buffer opens; two seconds of landscape-left scans stamped by the
        // wall clock; then nothing, and the raw attributes, read again, are polled.
        try testbed.stream(Self.path, scanHex: Self.words([-256, 0, 0]) + "0000" + "{t}", count: 100, rate: 50, clock: "realtime")
        var events: [ServerMessage] = []
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, !events.contains(where: { $0.device == "landscape-left" }) || events.last?.device != "portrait" {
            if let message = subscriber.readMessage(timeout: 1), message.event != nil { events.append(message) }
        }
        let landscape = try #require(events.first { $0.device == "landscape-left" }?.t, "\(daemon.log)")
        let portrait = try #require(events.last { $0.device == "portrait" }?.t, "\(daemon.log)")
        #expect(daemon.log.contains("polling instead"), "\(daemon.log)")
        #expect(abs(landscape - monotonicNow()) < 15, "buffered: the monotonic clock, not the wall clock's \(landscape)")
        #expect(portrait > landscape, "polled after buffered: time went on")
        let times = events.compactMap(\.t)
        #expect(times == times.sorted())
        #expect(daemon.log.contains("delivered nothing"))
    }

    @Test("A device without a current trigger gets its own (<name>-dev<N>), and its scans flow")
    func trigger() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(
            Self.device(format: "le:s16/16>>0", timestamp: false, scale: "0.0383072") + "A: trigger/current_trigger=\\n\n")
        try testbed.describe("P: /devices/trigger0\nE: SUBSYSTEM=iio\nA: name=accel_3d-dev0\\n\n")
        let daemon = try run(testbed)
        try testbed.stream(Self.path, scanHex: Self.words([0, -256, 0]), count: 200, rate: 50)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        let current = try String(
            contentsOfFile: testbed.root + "/sys/devices/platform/accel/iio:device0/trigger/current_trigger", encoding: .utf8)
        #expect(current.hasPrefix("accel_3d-dev0"))
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
        // The stall is counted in status, and orientctl status and orientd doctor show it.
        let incidents = try #require(status?.statusReport?.incidents?.first, "\(String(describing: status))")
        #expect(incidents.sensor == "accelerometer" && incidents.count == 1, "\(incidents)")
        #expect(incidents.last.hasSuffix("polling instead"), "\(incidents)")
        let ctl = try OrientdProcess.run(["--socket", daemon.socket, "status"], executable: OrientdProcess.orientctl)
        #expect(ctl.stdout.contains("accelerometer: 1 incident since start, the last at "), "\(ctl.stdout)")
        let asked = try OrientdProcess.run(["doctor", "--seconds", "0.5", "--socket", daemon.socket], environment: testbed.environment)
        #expect(asked.stdout.contains("The daemon (\(daemon.socket)), up "), "\(asked.stdout)")
        #expect(asked.stdout.contains("  accelerometer: once since it started; the last, at "), "\(asked.stdout)")
        daemon.signal(SIGTERM)
        let doctor = try OrientdProcess.run(
            ["doctor", "--seconds", "1", "--socket", daemon.socket], environment: testbed.environment)
        #expect(doctor.stdout.contains("The daemon: no answer: orientd is not running (cannot connect to \(daemon.socket)"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("Orientation: portrait"), "\(doctor.stdout)")
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

    @Test("A buffer-only accelerometer without a node under umockdev: scans from iio-dev-data.bin, the last complete one counts, and a missing file keeps the last")
    func bufferOnlyFromDataFile() throws {
        let testbed = try UmockdevTestbed()
        try testbed.describe(Self.bufferOnly)
        let sysfs = testbed.root + "/sys/devices/platform/accel/iio:device0"
        let data = testbed.root + "/iio-dev-data.bin"
        func attribute(_ name: String) -> String? { try? String(contentsOfFile: sysfs + "/" + name, encoding: .utf8) }
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: data), options: .atomic) }
        // Upside down, then portrait, then half a scan a writer has not finished: portrait is the last complete one.
        try write(Self.scan((0, 256, 0)) + Self.scan((0, -256, 0)) + Array(Self.scan((-256, 0, 0)).prefix(10)))
        let daemon = try DaemonHarness([], environment: testbed.environment)
        try daemon.waitUntilListening()
        let subscriber = try LineClient(path: daemon.socket)
        #expect(subscriber.request(#""op":"subscribe""#)?.ok == true)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered")
        #expect(["x", "y", "z", "timestamp"].map { attribute("scan_elements/in_\($0 == "timestamp" ? $0 : "accel_" + $0)_en") } == Array(repeating: "1", count: 4))
        #expect(attribute("buffer/enable") == "1", "enabled while open")

        try write(Self.scan((-256, 0, 0)))
        #expect(try daemon.poll { $0.device == "landscape-left" }?.device == "landscape-left", "\(daemon.log)")
        try FileManager.default.removeItem(atPath: data)
        usleep(500_000)
        #expect(try daemon.poll { _ in true }?.device == "landscape-left", "the last reading stands while the file is missing")
        #expect(!daemon.log.contains("sensor lost") && !daemon.log.contains("retrying"), "\(daemon.log)")

        subscriber.close()
        #expect(waitFor { attribute("buffer/enable") == "0" }, "disabled once closed: \(daemon.log)")
        daemon.expectCleanStop()
    }
}

/// A buffer-only accelerometer as the D-Bus facade finds it: present before any claim, its scan elements enabled
/// and its buffer left off until a claim, as iio-sensor-proxy 3.9 leaves them.
@Suite(
    "Buffer-only accelerometers on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct BufferOnlyDiscoveryTests {
    /// A private bus, the testbed `device` describes (`prepare` adds to it before the start), orientd serving it with
    /// its facade, and a bus client that claims nothing until asked.
    final class Bench {
        let folder: String
        let bus: PrivateBus
        let testbed: UmockdevTestbed
        let daemon: DaemonHarness
        let client: LineProcess

        init(_ device: String, prepare: (UmockdevTestbed) throws -> Void = { _ in }) throws {
            folder = try DaemonHarness.makeFolder()
            bus = try PrivateBus(folder: folder)
            testbed = try UmockdevTestbed()
            try testbed.describe(device)
            try prepare(testbed)
            daemon = try DaemonHarness(
                ["--dbus", "--rate", "50"], folder: folder, environment: testbed.environment.merging(bus.environment) { $1 })
            try daemon.waitUntilListening()
            client = try LineProcess(UmockdevTestbed.python, [DBusFacadeTests.clientScript], environment: bus.environment)
            guard client.waitForLine({ $0.hasPrefix("ready ") }) != nil else { throw HarnessError("bus_client.py did not start") }
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    @Test("Found by its scan elements alone: HasAccelerometer before any claim, scan elements on, buffer off; a claim reads it")
    func foundBeforeClaim() throws {
        let bench = try Bench(BufferedSensorTests.bufferOnly) { testbed in
            try Data(BufferedSensorTests.scan((256, 0, 0))).write(to: URL(fileURLWithPath: testbed.root + "/iio-dev-data.bin"))
        }
        let (bus, daemon) = (bench.bus, bench.daemon)
        let sysfs = bench.testbed.root + "/sys/devices/platform/accel/iio:device0"
        func attribute(_ name: String) -> String? { try? String(contentsOfFile: sysfs + "/" + name, encoding: .utf8) }
        #expect(waitFor { bus.property("HasAccelerometer") == "b true" }, "\(daemon.log)")
        #expect(waitFor { attribute("scan_elements/in_accel_z_en") == "1" }, "enabled when found: \(daemon.log)")
        #expect(["x", "y"].allSatisfy { attribute("scan_elements/in_accel_\($0)_en") == "1" })
        #expect(attribute("buffer/enable") == "0", "off until claimed")
        #expect(bus.property("AccelerometerOrientation") == "s \"undefined\"")

        #expect(bench.client.ask("claim") == "ok", "\(daemon.log)")
        #expect(bus.property("AccelerometerOrientation") == "s \"left-up\"", "decided by the first reading: \(daemon.log)")
        #expect(attribute("buffer/enable") == "1")
    }

    @Test("A buffer that goes silent while the sensor turns, seen by a D-Bus claimant: polled, and the orientation follows (2 s after the last scan, checked within 10 s)")
    func silentBufferOnTheBus() throws {
        // The scans say portrait ("normal" on D-Bus); the raw attributes, read once polled, say left-up.
        let bench = try Bench(
            BufferedSensorTests.device(format: "le:s16/16>>0", timestamp: false, scale: "0.0383072", raw: (256, 0, 0)))
        let (bus, daemon) = (bench.bus, bench.daemon)
        #expect(waitFor { bus.property("HasAccelerometer") == "b true" }, "\(daemon.log)")
        try bench.testbed.stream(BufferedSensorTests.path, scanHex: BufferedSensorTests.words([0, -256, 0]), count: 100, rate: 50)
        #expect(bench.client.ask("claim") == "ok", "\(daemon.log)")
        #expect(waitFor { bus.property("AccelerometerOrientation") == "s \"normal\"" }, "\(daemon.log)")
        // The scans end about 2 s after they began: 2 s of silence, a raw read elsewhere than the last scan, polled.
        #expect(waitFor(timeout: 10) { bus.property("AccelerometerOrientation") == "s \"left-up\"" }, "\(daemon.log)")
        #expect(daemon.log.contains("while the sensor moved") && daemon.log.contains("polling instead"), "\(daemon.log)")
        #expect(daemon.process.isRunning, "no restart")
    }
}
