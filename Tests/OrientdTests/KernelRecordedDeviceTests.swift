import Foundation
import OrientProtocol
import Testing

/// Sensors as Debian 6.1's own drivers lay them out in sysfs, recorded with `umockdev-record` in a real-kernel guest
/// (Tests/Kernel/record-umockdev.sh; Fixtures/kernel-6.1): the HID hub's accelerometer, light and proximity sensors,
/// and a KXCJK-1013 on I2C. Hand-written fixtures are as faithful as whoever wrote them; these are what the kernel
/// shows, so the emulated tier reads the same attribute names, formats, triggers and scan layouts as the real one.
@Suite(
    "Devices as the kernel's drivers lay them out (recorded)", .serialized,
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct KernelRecordedDeviceTests {
    /// One recorded device: its umockdev text, its sysfs path and its device node.
    struct Recorded {
        static let folder = String(#filePath).replacingOccurrences(
            of: "KernelRecordedDeviceTests.swift", with: "Fixtures/kernel-6.1/")
        let text: String
        let sysfs: String
        let node: String

        init(_ name: String) throws {
            text = try String(contentsOfFile: Self.folder + name + ".umockdev", encoding: .utf8)
            let lines = text.split(separator: "\n")
            let path = try #require(lines.first { $0.hasPrefix("P: ") }?.dropFirst(3))
            let node = try #require(lines.first { $0.hasPrefix("N: ") }?.dropFirst(3))
            sysfs = "/sys" + path
            self.node = "/dev/" + node
        }

        func attribute(_ name: String, in testbed: UmockdevTestbed) -> String? {
            (try? String(contentsOfFile: testbed.root + sysfs + "/" + name, encoding: .utf8))
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
    }

    /// Little-endian 32-bit words, as hex: the HID drivers' `le:s32/32>>0`.
    static func words32(_ values: [Int]) -> String {
        values.map { value in
            let word = UInt32(bitPattern: Int32(value))
            return (0..<4).map { String(format: "%02x", (word >> (8 * $0)) & 0xFF) }.joined()
        }.joined()
    }

    private func status(_ daemon: DaemonHarness) throws -> StatusReport? {
        try LineClient(path: daemon.socket).request(#""op":"status""#)?.statusReport
    }

    @Test("hid-sensor-accel-3d: buffered in 32-bit words through its own trigger, the rate written to in_accel_sampling_frequency")
    func hidAccelerometer() throws {
        let testbed = try UmockdevTestbed()
        let accel = try Recorded("accel_3d")
        try testbed.describe(accel.text)
        let daemon = try DaemonHarness(["--sampling", "always"], environment: testbed.environment)
        try daemon.waitUntilListening()
        // The driver has no device-level sampling_frequency: the full rate goes to the channel's.
        #expect(waitFor { accel.attribute("in_accel_sampling_frequency", in: testbed).flatMap(Double.init) == 50 },
                "\(String(describing: accel.attribute("in_accel_sampling_frequency", in: testbed)))\n\(daemon.log)")
        // x, y, z at 0.00001 m/s² a count, 4 bytes of padding, the 64-bit timestamp: 24 bytes a scan, stamped by the
        // wall clock, which current_timestamp_clock names (the kernel's default).
        #expect(accel.attribute("current_timestamp_clock", in: testbed)?.hasPrefix("realtime") == true)
        try testbed.stream(
            accel.node, scanHex: Self.words32([-981_000, 0, 0]) + "00000000" + "{t}", count: 200, rate: 50, clock: "realtime")
        #expect(try daemon.poll { $0.device == "landscape-left" }?.device == "landscape-left", "\(daemon.log)")
        let sensor = try #require(try status(daemon)?.sensor)
        #expect(sensor.mode == "buffered" && sensor.name == "accel_3d", "\(sensor)")
        #expect(accel.attribute("trigger/current_trigger", in: testbed) == "accel_3d-dev0")
    }

    @Test("kxcjk-1013 on I2C with no interrupt: no trigger, so polled, at the driver's scale (0.019163) and identity matrix")
    func i2cAccelerometer() throws {
        let testbed = try UmockdevTestbed()
        let part = try Recorded("kxcjk1013")
        try testbed.describe(part.text)
        let daemon = try DaemonHarness(["--sampling", "always"], environment: testbed.environment)
        try daemon.waitUntilListening()
        // Recorded upright: y = -512 counts, -9.81 m/s².
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        try testbed.set(part.sysfs, "in_accel_y_raw", "0")
        try testbed.set(part.sysfs, "in_accel_x_raw", "512")
        #expect(try daemon.poll { $0.device == "landscape-right" }?.device == "landscape-right", "\(daemon.log)")
        let sensor = try #require(try status(daemon)?.sensor)
        #expect(sensor.mode == "polled" && sensor.mountMatrix == "1, 0, 0; 0, 1, 0; 0, 0, 1", "\(sensor)\n\(daemon.log)")
        #expect(daemon.log.contains("no buffered capture"), "\(daemon.log)")
    }

    /// A socket client asking for `reading`, and the first of its lines that contains `expected`.
    private func firstLine(of daemon: DaemonHarness, asking reading: String, containing expected: String) throws -> String? {
        let client = try LineClient(path: daemon.socket)
        client.send(#"{"op":"subscribe","id":1,"readings":["\#(reading)"]}"# + "\n")
        while let line = client.readLine(timeout: 15) {
            if line.contains(expected) { return line }
        }
        return nil
    }

    @Test("hid-sensor-als: the level is in_intensity_both_raw × in_intensity_scale (0.01), read while its buffer says nothing")
    func hidLight() throws {
        let testbed = try UmockdevTestbed()
        let light = try Recorded("als")
        try testbed.describe(light.text)
        // The driver reads both channels from the hub's one illuminance field; iio-sensor-proxy's buffered light, and
        // orientd's, read the intensity.
        for channel in ["in_illuminance_raw", "in_intensity_both_raw"] { try testbed.set(light.sysfs, channel, "12000") }
        let daemon = try DaemonHarness([], environment: testbed.environment)
        try daemon.waitUntilListening()
        let line = try firstLine(of: daemon, asking: "light", containing: #""level":120"#)
        #expect(line == #"{"event":"light","present":true,"level":120,"unit":"lux"}"#, "\(daemon.log)")
    }

    @Test("hid-sensor-prox: in_proximity_raw against the machine's PROXIMITY_NEAR_LEVEL (the guest's udev rule: 100)")
    func hidProximity() throws {
        let testbed = try UmockdevTestbed()
        let proximity = try Recorded("prox")
        try testbed.describe(proximity.text)
        try testbed.set(proximity.sysfs, "in_proximity_raw", "300")
        let daemon = try DaemonHarness([], environment: testbed.environment)
        try daemon.waitUntilListening()
        let line = try firstLine(of: daemon, asking: "proximity", containing: #""near":true"#)
        #expect(line == #"{"event":"proximity","present":true,"near":true}"#, "\(daemon.log)")
    }
}
