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

    /// The daemon on `testbed`'s devices, sampling always at 50 Hz, listening.
    static func startDaemon(_ testbed: UmockdevTestbed, _ arguments: [String] = []) throws -> DaemonHarness {
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"] + arguments, environment: testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    @Test("A polled accelerometer: portrait, then landscape when its values change while running")
    func polledValuesChange() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice(
            "iio:device0", attributes: Self.portraitAttributes, properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        let daemon = try Self.startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        try testbed.set(path, "in_accel_y_raw", "0")
        try testbed.set(path, "in_accel_x_raw", "256")
        let state = try daemon.poll { $0.device == "landscape-right" }
        #expect(state?.device == "landscape-right")
        #expect(state?.interface == "landscape-left")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.mode == "polled")
        #expect(status?.sensorInfo?.mountMatrixSource == "udev ACCEL_MOUNT_MATRIX")
        #expect(!daemon.log.contains("treating them as 1 g"), "a correct scale is left alone")
    }

    /// A driver whose published scale is 10 times too large: raw -25.6 at scale 10 is 256 m/s², 26.1 g, at rest.
    /// The capture learning 1 g from it, for each kind of wrong scale, is `LiveCaptureTests.wrongScale`.
    static let wrongScale = [
        "name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-25.6", "in_accel_z_raw": "0", "in_accel_scale": "10",
    ]

    @Test("orientd doctor learns a wrong scale while it reads, and shows the correction")
    func doctorWrongScale() throws {
        let testbed = try UmockdevTestbed()
        _ = try testbed.addDevice("iio:device0", attributes: Self.wrongScale)
        let output = try OrientdProcess.run(["doctor", "--json", "--seconds", "3"], environment: testbed.environment)
        #expect(output.status == 0, "\(output.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let sensor = report?["sensor"] as? [String: Any]
        #expect(abs((sensor?["scale-correction"] as? Double ?? 0) - 9.80665 / 256) < 1e-6, "\(output.stdout)")
        #expect(report?["device"] as? String == "portrait")
        let readings = report?["readings"] as? [[String: Any]]
        #expect(abs((readings?.last?["y"] as? Double ?? 0) + 9.81) < 0.05, "corrected readings")
        let warnings = report?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("26.1 g at the published scale 10; treating them as 1 g (correction ×0.0383)") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("the scale looks wrong") }, "the corrected readings are 1 g")

        let human = try OrientdProcess.run(["doctor", "--seconds", "3"], environment: testbed.environment)
        #expect(human.stdout.contains("scale: from the device (10), corrected ×0.0383"), "\(human.stdout)")
        #expect(human.stdout.contains("Orientation: portrait"))
    }

    /// Starts the daemon on one sensor whose raw reading is `raw` and whose sysfs mount matrix is `matrix`;
    /// returns the device orientation it settles on and whether status says the matrix was repaired.
    private func sysfsMatrixReading(
        raw: (x: String, y: String, z: String), matrix: String, arguments: [String] = []
    ) throws -> (device: String?, repaired: Bool?) {
        let testbed = try UmockdevTestbed()
        var attributes = Self.portraitAttributes
        attributes["in_accel_x_raw"] = raw.x
        attributes["in_accel_y_raw"] = raw.y
        attributes["in_accel_z_raw"] = raw.z
        attributes["in_accel_mount_matrix"] = matrix
        _ = try testbed.addDevice("iio:device0", attributes: attributes)
        let daemon = try Self.startDaemon(testbed, arguments)
        let device = try daemon.poll { $0.device != "unknown" }?.device
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.mountMatrixSource == "sysfs in_accel_mount_matrix")
        return (device, status?.sensorInfo?.mountMatrixRepaired)
    }

    @Test("The mount matrix comes from sysfs when udev has none; a proper rotation is used as it is")
    func sysfsMatrix() throws {
        // Sensor x is device -y: the portrait reading (0, -256, 0) in device terms is (256, 0, 0) raw.
        let found = try sysfsMatrixReading(raw: ("256", "0", "0"), matrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(found.device == "portrait")
        #expect(found.repaired == false)
    }

    @Test("A mirrored sysfs matrix (z row negated) is repaired: lying face up reads face-up, not face-down")
    func mirroredMatrixRepaired() throws {
        // Face up reads (0, 0, -g) in device terms; this sensor's z is the device's z, but the matrix says -z.
        let mirrored = "0, 1, 0; -1, 0, 0; 0, 0, -1"
        let repaired = try sysfsMatrixReading(raw: ("0", "0", "-256"), matrix: mirrored)
        #expect(repaired.device == "face-up")
        #expect(repaired.repaired == true)
        // As found, the mirror swaps face up and face down: what the repair is for.
        let asFound = try sysfsMatrixReading(raw: ("0", "0", "-256"), matrix: mirrored, arguments: ["--no-mount-repair"])
        #expect(asFound.device == "face-down")
        #expect(asFound.repaired == false)
    }

    @Test("With a base and a display accelerometer the display one, labelled so in sysfs, drives the screen")
    func displayWins() throws {
        let testbed = try UmockdevTestbed()
        var base = Self.portraitAttributes
        base["in_accel_x_raw"] = "256"
        base["in_accel_y_raw"] = "0"
        _ = try testbed.addDevice("iio:device0", attributes: base, properties: ["ACCEL_LOCATION": "base"])
        var display = Self.portraitAttributes
        display["label"] = "accel-display"
        _ = try testbed.addDevice("iio:device1", attributes: display)
        let both = try Self.startDaemon(testbed)
        #expect(try both.poll { $0.device != "unknown" }?.device == "portrait", "the display sensor reads portrait")
        #expect(try both.poll(op: "status") { $0.sensorInfo?.id != nil }?.sensorInfo?.id == "iio:device1")
    }

    @Test("Removed while running: device unknown, sensor unavailable; added back: read again without a restart")
    func hotplug() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice("iio:device0", attributes: Self.portraitAttributes)
        let daemon = try Self.startDaemon(testbed)
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
        #expect(sensor?["mount-matrix-source"] as? String == "udev ACCEL_MOUNT_MATRIX")
        #expect(sensor?["mirrored"] as? Bool == true)
        #expect(sensor?["mount-matrix-used"] as? String == "0, -1, 0; -1, 0, 0; 0, 0, -1")
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
