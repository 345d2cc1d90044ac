import Foundation
import OrientProtocol
import Testing

/// The real daemon reading emulated IIO accelerometers through libiio and libudev (umockdev). The capture's choice,
/// matrices, scales, faults and hot-plug are in process (LiveCaptureTests, SensorSelectionTests); doctor's and
/// record's reading of its events too (DoctorReportTests, TraceRecordingTests).
@Suite("Live sensors under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct LiveSensorTests {
    /// iio-sensor-proxy's polled reference: y raw -256 at scale 0.0383072 (9.81 m/s²) is portrait.
    static let portraitAttributes = [
        "name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-256", "in_accel_z_raw": "0",
        "in_accel_scale": "0.0383072",
    ]

    /// The daemon on `testbed`'s devices, sampling always at 50 Hz, listening.
    static func startDaemon(_ testbed: UmockdevTestbed, _ arguments: [String] = []) throws -> DaemonHarness {
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"] + arguments, environment: testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    @Test("Polled, read as its values change; removed while running: device unknown, sensor unavailable; added back with a sysfs matrix: read through it without a restart")
    func hotplug() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice(
            "iio:device0", attributes: Self.portraitAttributes, properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        let daemon = try Self.startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        try testbed.set(path, "in_accel_y_raw", "0")
        try testbed.set(path, "in_accel_x_raw", "256")
        #expect(try daemon.poll { $0.device == "landscape-right" }?.interface == "landscape-left")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.mode == "polled")
        #expect(status?.sensorInfo?.mountMatrixSource == "udev ACCEL_MOUNT_MATRIX")
        #expect(!daemon.log.contains("treating them as 1 g"), "a correct scale is left alone")

        try testbed.remove(path)
        let gone = try daemon.poll { $0.sensor == "unavailable" }
        #expect(gone?.sensor == "unavailable")
        #expect(gone?.device == "unknown")
        // Sensor y is device x here: the raw portrait reading (0, -256, 0) is device landscape-left.
        var turned = Self.portraitAttributes
        turned["in_accel_mount_matrix"] = "0, 1, 0; -1, 0, 0; 0, 0, 1"
        _ = try testbed.addDevice("iio:device0", attributes: turned)
        let back = try daemon.poll { $0.sensor == "available" && $0.device == "landscape-left" }
        #expect(back?.device == "landscape-left", "\(daemon.log)")
        let found = try daemon.poll(op: "status") { $0.sensorInfo?.mountMatrixSource.hasPrefix("sysfs") == true }
        #expect(found?.sensorInfo?.mountMatrixSource == "sysfs in_accel_mount_matrix")
        #expect(found?.sensorInfo?.mountMatrixRepaired == false)
        #expect(daemon.process.isRunning)
    }

    @Test("orientd doctor lists the IIO devices and which are accelerometers; a base sensor alone, or none, is exit 69 and why")
    func doctor() throws {
        let testbed = try UmockdevTestbed()
        let base = try testbed.addDevice("iio:device0", attributes: Self.portraitAttributes, properties: ["ACCEL_LOCATION": "base"])
        _ = try testbed.addDevice("iio:device1", attributes: ["name": "als", "in_illuminance_raw": "40"])
        let alone = try OrientdProcess.run(["doctor", "--json", "--seconds", "1"], environment: testbed.environment)
        #expect(alone.status == 69, "\(alone.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any]
        let devices = report?["devices"] as? [[String: Any]]
        #expect(devices?.map { $0["id"] as? String } == ["iio:device0", "iio:device1"])
        #expect(devices?.map { $0["accelerometer"] as? Bool } == [true, false], "the light sensor is not one")
        #expect(devices?.first?["location"] as? String == "base")
        #expect((report?["warnings"] as? [String])?.contains { $0.hasPrefix("only a base (keyboard) accelerometer") } == true, "\(alone.stdout)")
        try testbed.remove(base)
        let none = try OrientdProcess.run(["doctor", "--seconds", "1"], environment: testbed.environment)
        #expect(none.status == 69 && none.stdout.contains("no IIO accelerometer found"), "\(none.stdout)")
    }
}
