import Foundation
import OrientCore
import OrientProtocol
import Testing

/// The real daemon reading a convertible's two emulated accelerometers (umockdev): the display's and the base's.
@Suite("Convertible under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct ConvertibleLiveTests {
    /// 256 raw is 1 g at this scale (iio-sensor-proxy's polled fixture).
    static let scale = 0.0383072
    static let g = 256 * scale

    /// Both sensors' attributes for a display attitude and hinge angle: the display's matrix is identity, the base's
    /// `baseMatrix` (a rotation, so its transpose turns the base's device frame into its sensor frame).
    static func attributes(display: Vector3, hinge: Double, baseMatrix: MountMatrix = .identity)
        -> (display: [String: String], base: [String: String])
    {
        let inBaseFrame = HingeGeometry.base(fromDisplay: display, hingeAngle: hinge)
        let m = baseMatrix.rows
        let base = m.x * inBaseFrame.x + m.y * inBaseFrame.y + m.z * inBaseFrame.z
        func raw(_ v: Vector3) -> [String: String] {
            ["in_accel_x_raw": text(v.x), "in_accel_y_raw": text(v.y), "in_accel_z_raw": text(v.z)]
        }
        return (raw(display), raw(base))
    }

    static func text(_ acceleration: Double) -> String { String(Int((acceleration / scale).rounded())) }

    /// Gravity in the display frame for a display leaning back `tilt` degrees.
    static func display(tilt: Double) -> Vector3 {
        let t = tilt * .pi / 180
        return Vector3(0, -cos(t) * g, -sin(t) * g)
    }

    final class Convertible {
        let testbed: UmockdevTestbed
        let displayPath: String
        let basePath: String
        let baseMatrix: MountMatrix

        /// A `baseMatrix` other than identity is published as the base's `ACCEL_MOUNT_MATRIX`.
        init(display: Vector3, hinge: Double, baseMatrix: MountMatrix = .identity) throws {
            testbed = try UmockdevTestbed()
            self.baseMatrix = baseMatrix
            let start = ConvertibleLiveTests.attributes(display: display, hinge: hinge, baseMatrix: baseMatrix)
            let common = ["name": "accel_3d", "in_accel_scale": String(ConvertibleLiveTests.scale)]
            var baseProperties = ["ACCEL_LOCATION": "base"]
            if baseMatrix != .identity { baseProperties["ACCEL_MOUNT_MATRIX"] = baseMatrix.text }
            basePath = try testbed.addDevice(
                "iio:device0", attributes: common.merging(start.base) { $1 }, properties: baseProperties)
            displayPath = try testbed.addDevice(
                "iio:device1", attributes: common.merging(start.display) { $1 }, properties: ["ACCEL_LOCATION": "display"])
        }

        func set(display: Vector3, hinge: Double) throws {
            let values = ConvertibleLiveTests.attributes(display: display, hinge: hinge, baseMatrix: baseMatrix)
            for (attribute, value) in values.display { try testbed.set(displayPath, attribute, value) }
            for (attribute, value) in values.base { try testbed.set(basePath, attribute, value) }
        }

        func removeBase() throws { try testbed.remove(basePath) }

        /// Folds as a hand does: a second of small steps, the display's tilt going along.
        func fold(from: (tilt: Double, hinge: Double), to: (tilt: Double, hinge: Double)) throws {
            for step in 1...20 {
                let u = Double(step) / 20
                try set(display: ConvertibleLiveTests.display(tilt: from.tilt + (to.tilt - from.tilt) * u),
                        hinge: from.hinge + (to.hinge - from.hinge) * u)
                usleep(50_000)
            }
        }
    }

    private func startDaemon(_ convertible: Convertible, _ arguments: [String] = []) throws -> DaemonHarness {
        let daemon = try DaemonHarness(
            ["--sampling", "always", "--rate", "50"] + arguments, environment: convertible.testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    /// The emulated /dev/uinput's log once it holds `count` entries (the daemon writes just after it publishes).
    private func uinputLog(_ testbed: UmockdevTestbed, count: Int) throws -> [[String: Any]] {
        _ = waitFor(timeout: 3, interval: 0.02) { ((try? testbed.uinputLog())?.count ?? 0) >= count }
        return try testbed.uinputLog()
    }

    @Test("Folded to a tablet and opened again: posture, tablet mode and angle follow; with the defaults orientd-tablet-mode-switch keeps a uinput switch as the socket says, and clears it when orientd stops")
    func tabletModeSwitch() throws {
        let convertible = try Convertible(display: Self.display(tilt: 10), hinge: 100)
        try convertible.testbed.addUinput()
        let daemon = try DaemonHarness(["--rate", "50"], environment: convertible.testbed.environment)
        try daemon.waitUntilListening()
        // The one binary under the keeper's name, as the package links it.
        let keeperPath = daemon.folder + "/orientd-tablet-mode-switch"
        try FileManager.default.createSymbolicLink(atPath: keeperPath, withDestinationPath: OrientdProcess.binary)
        let keeperLog = daemon.folder + "/keeper.log"
        let keeper = try LineProcess(
            keeperPath, ["--socket", daemon.socket], environment: convertible.testbed.environment, errorLog: keeperLog)
        func logs() -> String { daemon.log + "\n" + ((try? String(contentsOfFile: keeperLog, encoding: .utf8)) ?? "") }
        #expect(try uinputLog(convertible.testbed, count: 4).count == 4, "made, reporting 0: \(logs())")
        #expect(daemon.log.contains("tablet-mode switch: on (display and base accelerometers (iio:device1, iio:device0)"), "\(logs())")
        #expect(waitFor { daemon.log.contains("base sensor: mount matrix") }, "\(daemon.log)")
        try convertible.fold(from: (10, 100), to: (30, 355))
        let on = try uinputLog(convertible.testbed, count: 6)
        #expect(on.compactMap { $0["event"] as? [Int] } == [[5, 1, 1], [0, 0, 0]], "\(logs())")
        let tablet = try daemon.poll { $0.posture == "tablet" && $0.tabletMode == true }
        #expect(tablet?.posture == "tablet", "\(daemon.log)")
        try convertible.fold(from: (30, 355), to: (10, 100))
        // θ is filtered: wait for it to settle rather than take the first laptop reading.
        let laptop = try daemon.poll { $0.posture == "laptop" && $0.tabletMode == false && $0.hingeAngle.map { abs($0 - 100) <= 2 } == true }
        #expect(laptop?.posture == "laptop" && laptop?.tabletMode == false, "\(daemon.log)")
        #expect(laptop?.interface == "portrait")
        #expect(daemon.log.contains("base accelerometer iio:device0"))
        let off = try uinputLog(convertible.testbed, count: 8)
        let requests = off.compactMap { entry -> String? in
            guard let name = entry["ioctl"] as? String else { return nil }
            return "\(name) \(entry["value"] ?? entry["name"] ?? "")"
        }
        // EV_SW is 5 and SW_TABLET_MODE 1 (linux/input-event-codes.h): the keeper asks for nothing else.
        #expect(requests == ["UI_SET_EVBIT 5", "UI_SET_SWBIT 1", "UI_DEV_SETUP orientd tablet mode switch", "UI_DEV_CREATE 0"])
        daemon.expectCleanStop()
        let cleared = try uinputLog(convertible.testbed, count: 9)
        // On, off, each followed by SYN_REPORT (type 0, code 0); then orientd's stream ended: the switch removed.
        #expect(cleared.compactMap { $0["event"] as? [Int] } == [[5, 1, 1], [0, 0, 0], [5, 1, 0], [0, 0, 0]], "\(cleared)")
        #expect(cleared.last?["ioctl"] as? String == "UI_DEV_DESTROY", "\(cleared)")
        kill(keeper.process.processIdentifier, SIGTERM)
        keeper.process.waitUntilExit()
        #expect(keeper.process.terminationStatus == 0, "\(logs())")
    }

    @Test("Lying folded or shut, screen up: a lid switch that says shut, at start or later, decides; the daemon itself never opens /dev/uinput")
    func lidSwitch() throws {
        // Screen up, the hinge at 360°: folded flat into a tablet, or a laptop shut upside down; gravity cannot
        // tell, and with no lid switch saying shut the screen facing up means folded.
        let pose = (display: Self.display(tilt: 90), hinge: 360.0)
        let convertible = try Convertible(display: pose.display, hinge: pose.hinge)
        try convertible.testbed.addLidSwitch(closed: false)
        try convertible.testbed.addUinput()
        let daemon = try startDaemon(convertible)
        #expect(try daemon.poll { $0.posture == "tablet" }?.posture == "tablet", "\(daemon.log)")
        #expect(daemon.log.contains("lid switch /dev/input/event7: open"))
        // Shut (the event a reader of the device gets): the same readings are now a shut laptop.
        try convertible.testbed.setLid(closed: true)
        let shut = try daemon.poll { $0.posture == "closed" }
        #expect(shut?.posture == "closed", "\(daemon.log)")
        #expect(shut?.tabletMode == false)
        #expect(daemon.log.contains("lid switch: shut"))
        #expect(try convertible.testbed.uinputLog().isEmpty, "no keeper: no request reached /dev/uinput")

        // Shut already when orientd starts, the switch forced on: the daemon decides, and never opens /dev/uinput.
        let shutAtStart = try Convertible(display: pose.display, hinge: pose.hinge)
        try shutAtStart.testbed.addLidSwitch(closed: true)
        try shutAtStart.testbed.addUinput()
        let second = try startDaemon(shutAtStart, ["--tablet-mode-switch"])
        #expect(try second.poll { $0.posture == "closed" }?.posture == "closed", "\(second.log)")
        #expect(second.log.contains("tablet-mode switch: on (tablet-mode-switch = yes)"), "\(second.log)")
        #expect(try shutAtStart.testbed.uinputLog().isEmpty, "only the keeper writes /dev/uinput")
    }
}
