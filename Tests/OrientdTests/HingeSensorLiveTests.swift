import Foundation
import OrientCore
import OrientProtocol
import Testing

/// The real daemon, `orientctl status` and `orientd doctor` on a display accelerometer with a kernel hinge sensor
/// beside it, emulated with umockdev as the drivers lay them out in sysfs: cros-ec-lid-angle (degrees, 500 when the
/// EC cannot tell) and hid-sensor-custom-intel-hinge (radians per unit, three labelled channels).
@Suite("Kernel hinge sensors under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct HingeSensorLiveTests {
    typealias Live = ConvertibleLiveTests

    static let crosAttributes = ["name": "cros-ec-lid-angle", "in_angl_raw": "100"]
    static func intelAttributes(raw: String) -> [String: String] {
        [
            "name": "hinge", "in_angl0_raw": raw, "in_angl1_raw": "20", "in_angl2_raw": "340",
            "in_angl_scale": "0.017453293", "in_angl_offset": "0",
            "in_angl0_label": "hinge", "in_angl1_label": "screen", "in_angl2_label": "keyboard",
        ]
    }

    /// A display accelerometer leaning back `tilt` degrees, alone: no base accelerometer.
    static func display(_ testbed: UmockdevTestbed, tilt: Double) throws -> String {
        let g = Live.display(tilt: tilt)
        return try testbed.addDevice(
            "iio:device1",
            attributes: [
                "name": "accel_3d", "in_accel_scale": String(Live.scale), "in_accel_x_raw": Live.text(g.x),
                "in_accel_y_raw": Live.text(g.y), "in_accel_z_raw": Live.text(g.z),
            ])
    }

    /// The emulated /dev/uinput's switch events (type, code, value) once it holds `count` entries.
    private func switchEvents(_ testbed: UmockdevTestbed, count: Int) throws -> [[Int]] {
        _ = waitFor(timeout: 3, interval: 0.02) { ((try? testbed.uinputLog())?.count ?? 0) >= count }
        return try testbed.uinputLog().compactMap { $0["event"] as? [Int] }
    }

    @Test("cros-ec-lid-angle drives posture, tablet mode and the keeper's switch; 500 holds them; status names the sensor")
    func cros() throws {
        let testbed = try UmockdevTestbed()
        _ = try Self.display(testbed, tilt: 10)
        let hinge = try testbed.addDevice("iio:device2", attributes: Self.crosAttributes)
        try testbed.addUinput()
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: testbed.environment)
        try daemon.waitUntilListening()
        let keeperPath = daemon.folder + "/orientd-tablet-mode-switch"
        try FileManager.default.createSymbolicLink(atPath: keeperPath, withDestinationPath: OrientdProcess.binary)
        let keeper = try LineProcess(
            keeperPath, ["--socket", daemon.socket], environment: testbed.environment, errorLog: daemon.folder + "/keeper.log")
        defer {
            kill(keeper.process.processIdentifier, SIGTERM)
            keeper.process.waitUntilExit()
        }
        let laptop = try daemon.poll { $0.posture == "laptop" && $0.hingeAngle == 100 }
        #expect(laptop?.tabletMode == false, "\(daemon.log)")
        #expect(waitFor { daemon.log.contains("tablet-mode switch: on (the kernel's hinge sensor cros-ec-lid-angle (iio:device2)") }, "\(daemon.log)")
        #expect(!daemon.log.contains("the hinge angles beside"), "a live sensor is decided on by udev's word alone: \(daemon.log)")

        let status = try ConvertibleToolsTests.orientctl(["status", "--socket", daemon.socket])
        #expect(status.stdout.contains("hinge sensor: iio:device2 (cros-ec-lid-angle) at \(hinge)\n"), "\(status.stdout)")
        #expect(status.stdout.contains("base sensor: none\n"), "\(status.stdout)")
        let json = try ConvertibleToolsTests.orientctl(["status", "--json", "--socket", daemon.socket])
        let reply = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let described = (reply["sensor"] as? [String: Any])?["hinge"] as? [String: Any]
        #expect(described?["id"] as? String == "iio:device2" && described?["path"] as? String == hinge, "\(json.stdout)")

        try testbed.set(hinge, "in_angl_raw", "355")
        let tablet = try daemon.poll { $0.posture == "tablet" }
        #expect(tablet?.tabletMode == true && tablet?.hingeAngle == 355, "\(daemon.log)")
        // Made (four requests), then on: EV_SW's SW_TABLET_MODE 1, then SYN_REPORT.
        #expect(try switchEvents(testbed, count: 6) == [[5, 1, 1], [0, 0, 0]], "\((try? testbed.uinputLog()) ?? [])")
        // The EC cannot tell: the angle is unknown (null, as when the accelerometers cannot read it), and posture and
        // tablet mode hold, for longer than the settle time many times over.
        try testbed.set(hinge, "in_angl_raw", "500")
        #expect(waitFor { daemon.log.contains("no angle: the EC cannot tell the angle (500); the posture holds") }, "\(daemon.log)")
        usleep(600_000)
        let held = try daemon.poll { $0.hingeAngle == nil }
        #expect(held?.posture == "tablet" && held?.tabletMode == true, "\(daemon.log)")
        #expect(try testbed.uinputLog().count == 6, "500 changed nothing on the switch")
        try testbed.set(hinge, "in_angl_raw", "90")
        #expect(try daemon.poll { $0.posture == "laptop" && $0.tabletMode == false }?.hingeAngle == 90, "\(daemon.log)")
        #expect(try switchEvents(testbed, count: 8).suffix(2) == [[5, 1, 0], [0, 0, 0]], "\(daemon.log)")
    }

    @Test("Intel's hinge plugged in later is read at once; unplugged, posture and tablet mode are unknown again")
    func intelPlugged() throws {
        let testbed = try UmockdevTestbed()
        _ = try Self.display(testbed, tilt: 10)
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: testbed.environment)
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.device == "portrait" }?.posture == "unknown", "no hinge sensor yet: \(daemon.log)")
        // 2.0943951 rad is 120°: raw 120 at the hub's one degree a unit.
        let hinge = try testbed.addDevice("iio:device2", attributes: Self.intelAttributes(raw: "120"))
        let laptop = try daemon.poll { $0.posture == "laptop" }
        #expect(laptop?.hingeAngle == 120 && laptop?.tabletMode == false, "\(daemon.log)")
        #expect(daemon.log.contains("hinge sensor iio:device2 (hinge): its angle is the hinge's"), "\(daemon.log)")
        try testbed.remove(hinge)
        let unknown = try daemon.poll { $0.posture == "unknown" }
        #expect(unknown?.tabletMode == nil && unknown?.hingeAngle == nil, "\(daemon.log)")
        #expect(daemon.log.contains("hinge sensor lost: iio:device2 was removed"), "\(daemon.log)")
    }

    @Test("doctor shows the hinge sensor's attributes and angle, the posture from it, and the switch decided on it")
    func doctor() throws {
        let testbed = try UmockdevTestbed()
        _ = try Self.display(testbed, tilt: 10)
        let hinge = try testbed.addDevice("iio:device2", attributes: Self.intelAttributes(raw: "104"))
        let output = try OrientdProcess.run(
            ["doctor", "--json", "--seconds", "2", "--socket", "/nonexistent/orientd.sock"], environment: testbed.environment)
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let sensor = try #require(report["hinge-sensor"] as? [String: Any], "\(output.stdout)")
        #expect(sensor["id"] as? String == "iio:device2" && sensor["name"] as? String == "hinge" && sensor["path"] as? String == hinge)
        let attributes = (sensor["attributes"] as? [[String: Any]])?.map { "\($0["name"] ?? "") \($0["value"] ?? "")" }
        #expect(attributes == ["in_angl0_raw 104", "in_angl_offset 0", "in_angl_scale 0.017453293", "in_angl0_label hinge"])
        #expect((sensor["angle"] as? Double).map { abs($0 - 104) < 0.01 } == true, "\(sensor)")
        let posture = try #require(report["hinge"] as? [String: Any], "\(output.stdout)")
        #expect(posture["angle"] as? Double == 104 && posture["posture"] as? String == "laptop", "\(posture)")
        #expect(report["base"] is NSNull, "no base accelerometer")

        let text = try OrientdProcess.run(
            ["doctor", "--seconds", "1", "--socket", "/nonexistent/orientd.sock"], environment: testbed.environment)
        #expect(text.stdout.contains("Base sensor: none (the hinge sensor below gives the hinge angle)"), "\(text.stdout)")
        #expect(text.stdout.contains("Hinge sensor iio:device2 (hinge): the kernel's, its angle is the hinge's"), "\(text.stdout)")
        #expect(text.stdout.contains("  angle: 104°") || text.stdout.contains("  angle: 104.0°"), "\(text.stdout)")
        #expect(text.stdout.contains("decides: on (the kernel's hinge sensor hinge (iio:device2)"), "\(text.stdout)")
    }
}
