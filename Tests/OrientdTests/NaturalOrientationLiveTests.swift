import Foundation
import Testing

/// natural-orientation on emulated hardware: an accelerometer and the DRM connectors udev lists beside it.
@Suite("Natural orientation under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct NaturalOrientationLiveTests {
    /// A display accelerometer reading (0, -g, 0): the panel upright as installed.
    private func testbed(connectors: [(String, String)]) throws -> (UmockdevTestbed, String) {
        let testbed = try UmockdevTestbed()
        let sensor = try testbed.addDevice(
            "iio:device0", attributes: LiveSensorTests.portraitAttributes,
            properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        for (name, mode) in connectors { try testbed.addConnector(name, mode: mode) }
        return (testbed, sensor)
    }

    private func doctor(_ testbed: UmockdevTestbed, _ arguments: [String] = []) throws -> [String: Any] {
        let output = try OrientdProcess.run(["doctor", "--json", "--seconds", "1"] + arguments, environment: testbed.environment)
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test("doctor: a 1920x1080 eDP panel is landscape, upright as installed is landscape-left; 800x1280 DSI is portrait")
    func doctorPanels() throws {
        let (laptop, _) = try testbed(connectors: [("card0-HDMI-A-1", "3840x2160"), ("card0-eDP-1", "1920x1080")])
        let report = try doctor(laptop)
        let panel = report["panel"] as? [String: Any]
        #expect(panel?["natural-orientation"] as? String == "landscape")
        #expect(panel?["source"] as? String == "panel")
        #expect(panel?["connector"] as? String == "eDP-1")
        #expect(panel?["mode"] as? String == "1920x1080")
        #expect(report["device"] as? String == "landscape-left")
        #expect(report["interface"] as? String == "landscape-right")
        let text = try OrientdProcess.run(["doctor", "--seconds", "1"], environment: laptop.environment).stdout
        #expect(text.contains("Natural orientation: landscape (internal panel eDP-1, preferred mode 1920x1080)"), "\(text)")

        let (tablet, _) = try testbed(connectors: [("card0-DSI-1", "800x1280")])
        let portrait = try doctor(tablet)
        #expect((portrait["panel"] as? [String: Any])?["natural-orientation"] as? String == "portrait")
        #expect(portrait["device"] as? String == "portrait")
    }

    @Test("doctor: no internal panel is portrait, said to be assumed; the setting overrides a detected panel")
    func assumedAndOverridden() throws {
        let (none, _) = try testbed(connectors: [("card0-HDMI-A-1", "1920x1080")])
        let text = try OrientdProcess.run(["doctor", "--seconds", "1"], environment: none.environment).stdout
        #expect(text.contains("Natural orientation: portrait (assumed: no internal panel (eDP, LVDS or DSI connector) found)"), "\(text)")
        #expect(text.contains("Orientation: portrait"))

        let (laptop, _) = try testbed(connectors: [("card0-eDP-1", "1920x1080")])
        let forced = try doctor(laptop, ["--natural-orientation", "portrait"])
        #expect((forced["panel"] as? [String: Any])?["source"] as? String == "setting")
        #expect(forced["device"] as? String == "portrait")
    }

    @Test("run on a landscape panel: the names follow the panel, and a landscape-only client stays landscape with the left edge up")
    func daemon() throws {
        let (testbed, sensor) = try testbed(connectors: [("card0-eDP-1", "1920x1080")])
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: testbed.environment)
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.device == "landscape-left" }?.interface == "landscape-right", "\(daemon.log)")
        #expect(daemon.log.contains("natural orientation: landscape (panel eDP-1, 1920x1080)"))
        // The left edge up: the panel stands as a portrait screen.
        try testbed.set(sensor, "in_accel_y_raw", "0")
        try testbed.set(sensor, "in_accel_x_raw", "256")
        #expect(try daemon.poll { $0.device == "portrait" }?.interface == "portrait")
        let client = try LineClient(path: daemon.socket)
        let landscapeOnly = client.request(#""op":"get","mask":"landscape""#)
        #expect(landscapeOnly?.interface == "landscape-right" && landscapeOnly?.rotation == 0)
        #expect(client.request(#""op":"get""#)?.rotation == 90, "portrait on this panel: the left edge up")
        let status = try OrientdProcess.run(["--socket", daemon.socket, "status"], executable: OrientdProcess.orientctl)
        #expect(status.stdout.contains("natural orientation: landscape (panel eDP-1, 1920x1080)"), "\(status.stdout)")
        let get = try OrientdProcess.run(["--socket", daemon.socket, "get"], executable: OrientdProcess.orientctl)
        #expect(get.stdout.contains("rotation: 90°"), "\(get.stdout)")
    }

    /// A panel, and what each pose of it is called there: normal, left-up, bottom-up, right-up, then face up.
    struct Panel: Sendable, CustomTestStringConvertible {
        var connector: String
        var mode: String
        /// The kernel command line the daemon sees, when the test puts one in its place.
        var commandLine: String?
        var devices: [String]
        var testDescription: String { "\(connector) \(mode)" + (commandLine.map { " with \($0)" } ?? "") }
    }

    static let landscapeNames = ["landscape-left", "portrait", "landscape-right", "portrait-upside-down", "face-up"]
    static let portraitNames = ["portrait", "landscape-right", "portrait-upside-down", "landscape-left", "face-up"]
    static let panels = [
        Panel(connector: "card0-eDP-1", mode: "1920x1080", devices: landscapeNames),
        Panel(connector: "card0-DSI-1", mode: "800x1280", devices: portraitNames),
        // A portrait panel mounted a quarter turn in a landscape case, as the kernel's argument says.
        Panel(
            connector: "card0-DSI-1", mode: "800x1280", commandLine: "quiet video=DSI-1:panel_orientation=right_side_up",
            devices: landscapeNames),
    ]

    @Test("run: the four upright poses and face up get each panel's names, and the same rotations", arguments: panels)
    func poses(panel: Panel) throws {
        let (testbed, sensor) = try testbed(connectors: [(panel.connector, panel.mode)])
        var wrapper: [String] = []
        if let commandLine = panel.commandLine {
            // The daemon's own view of /proc/cmdline, in a mount namespace of its own (root only, as in CI).
            let file = try DaemonHarness.makeFolder() + "/cmdline"
            try (commandLine + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            wrapper = ["/usr/bin/unshare", "--mount", "--", "/bin/sh", "-c",
                       "mount --bind \(file) /proc/cmdline && exec \"$0\" \"$@\""]
        }
        let daemon = try DaemonHarness(
            ["--sampling", "always", "--rate", "50"], wrapper: wrapper, environment: testbed.environment)
        try daemon.waitUntilListening()
        let raw: [(String, String, String)] = [("0", "-256", "0"), ("256", "0", "0"), ("0", "256", "0"), ("-256", "0", "0"), ("0", "0", "-256")]
        for (index, (x, y, z)) in raw.enumerated() {
            try testbed.set(sensor, "in_accel_x_raw", x)
            try testbed.set(sensor, "in_accel_y_raw", y)
            try testbed.set(sensor, "in_accel_z_raw", z)
            let state = try daemon.poll { $0.device == panel.devices[index] }
            #expect(state?.device == panel.devices[index], "\(daemon.log)")
            // Face up keeps the interface of the pose before it, and so its rotation.
            #expect(state?.rotation == [0, 90, 180, 270, 270][index], "pose \(index)")
        }
    }

    @Test("run with no panel at start: portrait, assumed; the panel's connector appearing later renames the poses")
    func panelAppears() throws {
        let (testbed, _) = try testbed(connectors: [])
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: testbed.environment)
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(daemon.log.contains("natural orientation: portrait (assumed: no internal panel"))
        // The graphics driver loads after orientd.
        try testbed.addConnector("card0-eDP-1", mode: "1920x1080")
        #expect(try daemon.poll { $0.device == "landscape-left" }?.interface == "landscape-right", "\(daemon.log)")
        #expect(daemon.log.contains("natural orientation: landscape (panel eDP-1, 1920x1080)"))
    }

    @Test("run with natural-orientation = portrait on a landscape panel names poses as before")
    func daemonOverride() throws {
        let (testbed, _) = try testbed(connectors: [("card0-eDP-1", "1920x1080")])
        let daemon = try DaemonHarness(
            ["--sampling", "always", "--natural-orientation", "portrait"], environment: testbed.environment)
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
    }
}
