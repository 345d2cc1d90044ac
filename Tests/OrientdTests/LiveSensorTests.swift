import Foundation
import OrientProtocol
import Testing

/// The real daemon reading emulated IIO accelerometers through libiio and libudev (umockdev).
@Suite("Live sensors under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct LiveSensorTests {
    /// iio-sensor-proxy's polled reference: y raw -256 at scale 0.0383072 (9.81 m/s²) is portrait.
    static let portraitAttributes = [
        "name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-256", "in_accel_z_raw": "0",
        "in_accel_scale": "0.0383072",
    ]

    private func startDaemon(_ testbed: UmockdevTestbed, _ arguments: [String] = []) throws -> DaemonHarness {
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"] + arguments, environment: testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    @Test("A polled accelerometer: portrait, then landscape when its values change while running")
    func polledValuesChange() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice(
            "iio:device0", attributes: Self.portraitAttributes, properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        let daemon = try startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        try testbed.set(path, "in_accel_y_raw", "0")
        try testbed.set(path, "in_accel_x_raw", "256")
        let state = try daemon.poll { $0.device == "landscape-right" }
        #expect(state?.device == "landscape-right")
        #expect(state?.interface == "landscape-left")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.mode == "polled")
        #expect(status?.sensorInfo?.mountMatrixSource == "udev ACCEL_MOUNT_MATRIX")
    }

    @Test("Readings in unknown units (no scale) still classify: 1 g is learned at rest")
    func noScale() throws {
        let testbed = try UmockdevTestbed()
        // iio-sensor-proxy's buffered fixture reading, (103, -919, -385) with no scale, is portrait.
        _ = try testbed.addDevice(
            "iio:device0", attributes: ["in_accel_x_raw": "103", "in_accel_y_raw": "-919", "in_accel_z_raw": "-385"])
        let daemon = try startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(daemon.log.contains("learning 1 g"))
    }

    @Test("The mount matrix comes from sysfs when udev has none; a proper rotation is used as it is")
    func sysfsMatrix() throws {
        let testbed = try UmockdevTestbed()
        var attributes = Self.portraitAttributes
        // Sensor x is device -y: the portrait reading (0, -256, 0) in device terms is (256, 0, 0) raw.
        attributes["in_accel_x_raw"] = "256"
        attributes["in_accel_y_raw"] = "0"
        attributes["in_accel_mount_matrix"] = "0, 1, 0; -1, 0, 0; 0, 0, 1"
        _ = try testbed.addDevice("iio:device0", attributes: attributes)
        let daemon = try startDaemon(testbed)
        #expect(try daemon.poll { $0.device != "unknown" }?.device == "portrait", "\(daemon.log)")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.mountMatrixSource == "sysfs in_accel_mount_matrix")
        #expect(status?.sensorInfo?.mountMatrixRepaired == false)
    }

    @Test("A mirrored sysfs matrix (z row negated) is repaired: lying face up reads face-up, not face-down")
    func mirroredMatrixRepaired() throws {
        let testbed = try UmockdevTestbed()
        var attributes = Self.portraitAttributes
        // Face up reads (0, 0, -g) in device terms; this sensor's z is the device's z, but the matrix says -z.
        attributes["in_accel_y_raw"] = "0"
        attributes["in_accel_z_raw"] = "-256"
        attributes["in_accel_mount_matrix"] = "0, 1, 0; -1, 0, 0; 0, 0, -1"
        _ = try testbed.addDevice("iio:device0", attributes: attributes)
        let daemon = try startDaemon(testbed)
        #expect(try daemon.poll { $0.device != "unknown" }?.device == "face-up", "\(daemon.log)")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.mountMatrixSource == "sysfs in_accel_mount_matrix")
        #expect(status?.sensorInfo?.mountMatrixRepaired == true)
        daemon.signal(SIGTERM)

        // As found, the mirror swaps face up and face down: what the repair is for.
        let unrepaired = try startDaemon(testbed, ["--no-mount-repair"])
        #expect(try unrepaired.poll { $0.device != "unknown" }?.device == "face-down", "\(unrepaired.log)")
        #expect(try unrepaired.poll(op: "status") { $0.sensorInfo?.id != nil }?.sensorInfo?.mountMatrixRepaired == false)
    }

    @Test("With a base and a display accelerometer the display one drives the screen; a base one alone does not")
    func displayWins() throws {
        let testbed = try UmockdevTestbed()
        var base = Self.portraitAttributes
        base["in_accel_x_raw"] = "256"
        base["in_accel_y_raw"] = "0"
        _ = try testbed.addDevice("iio:device0", attributes: base, properties: ["ACCEL_LOCATION": "base"])
        let daemon = try startDaemon(testbed)
        let alone = try daemon.poll { $0.sensor == "none" }
        #expect(alone?.sensor == "none", "a base sensor alone is not used")
        #expect(daemon.log.contains("only a base (keyboard) accelerometer"))
        daemon.signal(SIGTERM)

        var display = Self.portraitAttributes
        display["label"] = "accel-display"
        _ = try testbed.addDevice("iio:device1", attributes: display)
        let both = try startDaemon(testbed)
        #expect(try both.poll { $0.device != "unknown" }?.device == "portrait", "the display sensor reads portrait")
        #expect(try both.poll(op: "status") { $0.sensorInfo?.id != nil }?.sensorInfo?.id == "iio:device1")
    }

    @Test("Removed while running: device unknown, sensor unavailable; added back: read again without a restart")
    func hotplug() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice("iio:device0", attributes: Self.portraitAttributes)
        let daemon = try startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait")
        try testbed.remove(path)
        let gone = try daemon.poll { $0.sensor == "unavailable" }
        #expect(gone?.sensor == "unavailable")
        #expect(gone?.device == "unknown")
        var landscape = Self.portraitAttributes
        landscape["in_accel_x_raw"] = "-256"
        landscape["in_accel_y_raw"] = "0"
        _ = try testbed.addDevice("iio:device0", attributes: landscape)
        let back = try daemon.poll { $0.sensor == "available" && $0.device == "landscape-left" }
        #expect(back?.device == "landscape-left")
        #expect(daemon.process.isRunning)
    }

    @Test("orientd record writes a valid trace with the sensor's matrix, which classify reads back")
    func record() throws {
        let testbed = try UmockdevTestbed()
        _ = try testbed.addDevice(
            "iio:device0", attributes: Self.portraitAttributes, properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, 1"])
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trace = folder + "/recorded.trace"
        let recording = try OrientdProcess.run(
            ["record", "--output", trace, "--duration", "1", "--rate", "50"], environment: testbed.environment)
        #expect(recording.status == 0, "\(recording.stderr)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.hasPrefix("# orientd trace v1\n# mount-matrix: 0, 1, 0; 1, 0, 0; 0, 0, 1\n# source: iio:device0 accel_3d\n"))
        let samples = text.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(samples.count >= 40, "about 50 samples in a second")
        // The matrix swaps x and y: the raw portrait reading (0, -9.8, 0) is device landscape-left.
        let classified = try OrientdProcess.run(["classify", trace])
        #expect(classified.status == 0)
        #expect(classified.stdout.contains("\"device\":\"landscape-left\""))
        let none = try OrientdProcess.run(["record", "--output", trace, "--device", "iio:device9"], environment: testbed.environment)
        #expect(none.status == 66)
    }

    @Test("orientd doctor --json: the devices, the choice, a mirrored matrix repaired, readings and the orientation")
    func doctor() throws {
        let testbed = try UmockdevTestbed()
        var attributes = Self.portraitAttributes
        // With this matrix, device y = -(sensor x): a sensor x of +256 is device portrait.
        attributes["in_accel_x_raw"] = "256"
        attributes["in_accel_y_raw"] = "0"
        _ = try testbed.addDevice(
            "iio:device0", attributes: attributes, properties: ["ACCEL_MOUNT_MATRIX": "0, -1, 0; -1, 0, 0; 0, 0, 1"])
        _ = try testbed.addDevice("iio:device1", attributes: ["name": "als", "in_illuminance_raw": "40"])
        let output = try OrientdProcess.run(["doctor", "--json", "--seconds", "2"], environment: testbed.environment)
        #expect(output.status == 0, "\(output.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let devices = report?["devices"] as? [[String: Any]]
        #expect(devices?.map { $0["id"] as? String } == ["iio:device0", "iio:device1"])
        #expect(devices?.map { $0["accelerometer"] as? Bool } == [true, false])
        let sensor = report?["sensor"] as? [String: Any]
        #expect(sensor?["id"] as? String == "iio:device0")
        #expect(sensor?["mountMatrixSource"] as? String == "udev ACCEL_MOUNT_MATRIX")
        #expect(sensor?["mirrored"] as? Bool == true)
        #expect(sensor?["mountMatrixUsed"] as? String == "0, -1, 0; -1, 0, 0; 0, 0, -1")
        #expect(report?["device"] as? String == "portrait")
        let readings = report?["readings"] as? [[String: Any]]
        #expect(!(readings?.isEmpty ?? true))
        #expect(abs((readings?.last?["y"] as? Double ?? 0) + 9.81) < 0.05, "gravity in the device frame")
        let warnings = report?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("not a rotation") })

        let human = try OrientdProcess.run(["doctor", "--seconds", "1"], environment: testbed.environment)
        #expect(human.stdout.contains("Using iio:device0 (accel_3d): the only accelerometer"), "the light sensor is not one")
        #expect(human.stdout.contains("Orientation: portrait"))
    }

    @Test("orientd doctor warns about a base sensor alone, and exits 69 with no sensor")
    func doctorWarnings() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice("iio:device0", attributes: Self.portraitAttributes, properties: ["ACCEL_LOCATION": "base"])
        let base = try OrientdProcess.run(["doctor", "--seconds", "1"], environment: testbed.environment)
        #expect(base.status == 69)
        #expect(base.stdout.contains("only a base (keyboard) accelerometer"))
        try testbed.remove(path)
        let none = try OrientdProcess.run(["doctor", "--seconds", "1"], environment: testbed.environment)
        #expect(none.status == 69 && none.stdout.contains("no IIO accelerometer found"))
    }
}
