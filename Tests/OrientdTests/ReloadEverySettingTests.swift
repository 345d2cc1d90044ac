import Foundation
import OrientConfiguration
import OrientProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP against a running daemon, with every setting of the table changed at once.
@Suite("Reloading every setting")
struct ReloadEverySettingTests {
    @Test("SIGHUP changing every setting: each is named as applied or as waiting for the next start, by the part that reads it")
    func everySetting() throws {
        let (path, _) = try DaemonEndToEndTests.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(["--replay", path, "--config", config], folder: folder)
        try daemon.waitUntilListening()

        // The harness gives --socket, --state-directory and --natural-orientation on the command line, which win over the file.
        let fromCommandLine: Set = ["socket", "state-directory", "natural-orientation"]
        let changed = DaemonSetting.all.filter { !fromCommandLine.contains($0.key) }
        var text = ""
        for section in [nil, DaemonSetting.classifierSection] {
            if let section { text += "[\(section)]\n" }
            for setting in changed where setting.section == section { text += "\(setting.key) = \(setting.example)\n" }
        }
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(waitFor { daemon.log.contains("configuration reloaded") }, "\(daemon.log)")

        let line = daemon.log.split(separator: "\n").first { $0.contains("configuration reloaded") }.map(String.init) ?? ""
        #expect(!line.contains("read by no part"), "\(line)")
        let parts = line.components(separatedBy: "waiting for the next start: ")
        #expect(parts.count == 2, "\(line)")
        let waiting = Set((parts.last ?? "").components(separatedBy: ", "))
        let applied = Set((parts.first ?? "").components(separatedBy: "applied ").last?
            .components(separatedBy: ";").first?.components(separatedBy: ", ") ?? [])
        for setting in changed {
            #expect(applied.contains(setting.name) != waiting.contains(setting.name), "\(setting.name): \(line)")
        }
        #expect(waiting == ["socket-mode", "device", "dbus", "tablet-mode-switch"], "\(line)")
        #expect(applied.isSuperset(of: ["mask", "mount-matrix", "rate", "still-rate", "sampling", "max-clients"]), "\(line)")
        // Applied for real: the state shows the new system mask at once, and status the new sampling policy.
        let client = try LineClient(path: daemon.socket)
        #expect(client.request(#""op":"get""#)?.mask == "landscape")
        #expect(try daemon.poll(op: "status") { $0.sampling == "always" }?.sampling == "always", "\(daemon.log)")
        daemon.expectCleanStop()
    }

    /// iio-sensor-proxy's reference reading, (0, -g, 0) in the sensor's frame, read through three matrices.
    @Test(
        "SIGHUP adding, changing and removing mount-matrix: the emulated sensor is read through the matrix now in force, and status shows it",
        .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
    func mountMatrixEffect() throws {
        let testbed = try UmockdevTestbed()
        // udev's matrix turns the device half a turn: upside down.
        _ = try testbed.addDevice(
            "iio:device0", attributes: LiveSensorTests.portraitAttributes,
            properties: ["ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, -1, 0; 0, 0, 1"])
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        let steps: [(file: String, device: String, source: String)] = [
            ("mount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1\n", "landscape-left", "configuration"),
            ("", "portrait-upside-down", "udev ACCEL_MOUNT_MATRIX"),
            ("mount-matrix = 0, -1, 0; 1, 0, 0; 0, 0, 1\n", "landscape-right", "configuration"),
            ("mount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1\n", "landscape-left", "configuration"),
        ]
        try steps[0].file.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(
            ["--sampling", "always", "--config", config], folder: folder, environment: testbed.environment)
        try daemon.waitUntilListening()
        for (index, step) in steps.enumerated() {
            if index > 0 {
                try step.file.write(toFile: config, atomically: true, encoding: .utf8)
                daemon.signal(SIGHUP)
                #expect(waitFor { daemon.log.components(separatedBy: "configuration reloaded").count == index + 1 })
            }
            #expect(try daemon.poll { $0.device == step.device }?.device == step.device, "step \(index): \(daemon.log)")
            let status = try daemon.poll(op: "status") { $0.sensorInfo?.mountMatrixSource == step.source }
            #expect(status?.sensorInfo?.mountMatrixSource == step.source, "step \(index): \(daemon.log)")
        }
        daemon.expectCleanStop()
    }

    /// A setting changed alone in the file, and what shows it from outside, in `get` or `status`: with the line
    /// (`changed`), and with the line removed again, when its default must come back (`reverted`).
    struct Effect: Sendable, CustomTestStringConvertible {
        var line: String
        var op: String
        var changed: @Sendable (ServerMessage) -> Bool
        var reverted: @Sendable (ServerMessage) -> Bool
        var testDescription: String { line }
    }

    static let effects: [Effect] = [
        Effect(line: "mask = landscape", op: "get", changed: { $0.mask == "landscape" }, reverted: { $0.mask == "all" }),
        Effect(
            line: "sampling = always", op: "status", changed: { $0.sampling == "always" },
            reverted: { $0.sampling == "on-demand" }),
        Effect(
            line: "natural-orientation = landscape", op: "status",
            changed: { $0.statusReport?.naturalOrientation == "landscape" },
            reverted: { $0.statusReport?.naturalOrientation == "portrait" }),
        // udev's matrix is a mirror image (z flipped), which the repair fixes unless told not to.
        Effect(
            line: "mount-repair = no", op: "status", changed: { $0.sensorInfo?.mountMatrixRepaired == false },
            reverted: { $0.sensorInfo?.mountMatrixRepaired == true }),
        Effect(
            line: "mount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1", op: "get", changed: { $0.device == "landscape-left" },
            reverted: { $0.device == "portrait" }),
        Effect(
            line: "mount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1", op: "status",
            changed: { $0.sensorInfo?.mountMatrixSource == "configuration" },
            reverted: { $0.sensorInfo?.mountMatrixSource == "udev ACCEL_MOUNT_MATRIX" }),
        Effect(line: "rate = 20", op: "status", changed: { $0.sensorInfo?.rate == 20 }, reverted: { $0.sensorInfo?.rate == 50 }),
    ]

    @Test(
        "SIGHUP with one setting added, then removed: its effect shows in get or status, and its default comes back",
        .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)),
        arguments: effects)
    func effect(_ effect: Effect) throws {
        let testbed = try UmockdevTestbed()
        _ = try testbed.addDevice(
            "iio:device0", attributes: LiveSensorTests.portraitAttributes,
            properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, -1"])
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        // At debug level, so that a stop that overruns its bound is logged with swift-service-lifecycle's own trace of
        // which service it asked to stop. One did here, now and then, after a mount-matrix reload: a reading service's
        // demand stream cancelled while the reopened sensor changed the demand, a deadlock (SensorDemandTests).
        let daemon = try DaemonHarness(
            ["--config", config, "--log-level", "debug"], folder: folder, environment: testbed.environment)
        try daemon.waitUntilListening()
        // A subscriber keeps the sensor open (sampling is on demand until a row says otherwise).
        let subscriber = try LineClient(path: daemon.socket)
        #expect(subscriber.request(#""op":"subscribe""#)?.ok == true)
        #expect(try daemon.poll(op: effect.op, until: effect.reverted).map(effect.reverted) == true, "before: \(daemon.log)")
        for (round, text) in [effect.line + "\n", ""].enumerated() {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            #expect(waitFor { daemon.log.components(separatedBy: "configuration reloaded").count == round + 2 })
            let expected = round == 0 ? effect.changed : effect.reverted
            #expect(
                try daemon.poll(op: effect.op, until: expected).map(expected) == true,
                "\(round == 0 ? "added" : "removed"): \(daemon.log)")
        }
        daemon.expectCleanStop()
    }

    @Test("max-clients lowered by one reload and raised back by the next admits as many clients as before")
    func maxClientsBack() throws {
        let (path, _) = try DaemonEndToEndTests.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "max-clients = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(["--replay", path, "--config", config], folder: folder)
        try daemon.waitUntilListening()
        for (round, limit) in [1, 2].enumerated() {
            try "max-clients = \(limit)\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            #expect(waitFor { daemon.log.components(separatedBy: "configuration reloaded").count == round + 2 })
        }
        // Two clients are served again (the start-up probe may still count for a moment, as in clientLimit).
        let first = try LineClient(path: daemon.socket)
        #expect(first.request(#""op":"get""#)?.ok == true)
        #expect(waitFor { (try? LineClient(path: daemon.socket))?.request(#""op":"get""#)?.ok == true },
                "a second client is never served: \(daemon.log)")
    }
}
