import Foundation
import OrientCore
import OrientProtocol
import Testing

/// `orientd calibrate` as a process against emulated accelerometers (umockdev), whose readings a timer moves through
/// the poses with noise; then systemd-hwdb and the daemon on the file it wrote. What the session decides from the
/// readings, and what it writes or not, is CalibrationSessionTests' (in process).
@Suite(
    "orientd calibrate under umockdev", .serialized,
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct CalibrateLiveTests {
    /// 256 raw is 1 g at this scale.
    static let scale = 0.0383072
    static let dmi =
        "dmi:bvnACME:bvr1.07:bd03/14/2025:br1.7:svnACME:pnSlate10X:pvrRev2:rvnACME:rnSL10:cvnACME:ct30:cvr1:"
    /// Where a convertible lies when calibrate starts: folded into a tablet on the desk, screen up, keys down.
    static let foldedOnTheDesk: (display: Vector3, base: Vector3?) = (Vector3(0, 0, -1), Vector3(0, 0, 1))

    /// A machine with DMI data, a display accelerometer under an i2c parent, and for a convertible a base one.
    final class Machine {
        let testbed: UmockdevTestbed
        let display: (path: String, mounting: MountMatrix)
        let base: (path: String, mounting: MountMatrix)?

        /// `properties`: the udev properties of each sensor, e.g. a matrix hwdb gives it.
        init(
            display displayMounting: MountMatrix, base baseMounting: MountMatrix? = nil,
            displayProperties: [String: String] = [:],
            baseProperties: [String: String] = ["ACCEL_LOCATION": "base"]
        ) throws {
            let testbed = try UmockdevTestbed()
            self.testbed = testbed
            try testbed.describe("P: /devices/virtual/dmi/id\nE: SUBSYSTEM=dmi\nA: modalias=\(CalibrateLiveTests.dmi)\n")
            func sensor(_ name: String, parent: String, modalias: String, properties: [String: String]) throws -> String
            {
                try testbed.describe(
                    "P: /devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/\(parent)\nE: SUBSYSTEM=i2c\nA: modalias=\(modalias)\n"
                )
                return try testbed.addDevice(
                    name,
                    attributes: [
                        "name": "bmc150_accel", "in_accel_scale": String(CalibrateLiveTests.scale),
                        "in_accel_x_raw": "0", "in_accel_y_raw": "0", "in_accel_z_raw": "0",
                    ],
                    properties: properties,
                    parent: "/sys/devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/\(parent)")
            }
            let displayPath = try sensor(
                "iio:device0", parent: "i2c-BOSC0200:00", modalias: "acpi:BOSC0200:", properties: displayProperties)
            display = (displayPath, displayMounting)
            if let baseMounting {
                let basePath = try sensor(
                    "iio:device1", parent: "i2c-KIOX010A:00", modalias: "acpi:KIOX010A:", properties: baseProperties)
                base = (basePath, baseMounting)
            } else {
                base = nil
            }
        }

        var environment: [String: String] { testbed.environment }

        /// Holds the device in a pose: gravity `display` in the display frame (and `base` in the base's), each raw
        /// value jittering by up to 2 counts (0.08 m/s²) on a timer.
        /// `jitters`: false sets the values once (while a program opens the sensors: see `UmockdevTestbed.hold`).
        func hold(display gravity: Vector3, base baseGravity: Vector3? = nil, jitters: Bool = true) throws {
            func values(_ gravity: Vector3, _ mounting: MountMatrix) -> [String: Double] {
                // What a sensor mounted as `mounting` reads: Mᵀ · gravity, as M is a rotation.
                let m = mounting.rows
                let s = (m.x * gravity.x + m.y * gravity.y + m.z * gravity.z) * 256
                return ["in_accel_x_raw": s.x, "in_accel_y_raw": s.y, "in_accel_z_raw": s.z]
            }
            let (noise, period) = jitters ? (2.0, 0.04) : (0, 0)
            try testbed.hold(display.path, values: values(gravity, display.mounting), noise: noise, period: period)
            if let base, let baseGravity {
                try testbed.hold(base.path, values: values(baseGravity, base.mounting), noise: noise, period: period)
            }
        }

        /// Starts `orientd calibrate` with the device still in `pose`, and once the tool has opened the sensors, lets
        /// the readings jitter.
        func startCalibrate(
            _ arguments: [String], pose: (display: Vector3, base: Vector3?), onTerminal: Bool = false
        ) throws -> CalibrateProcess {
            try hold(display: pose.display, base: pose.base, jitters: false)
            let run = try CalibrateProcess(arguments, environment: environment, onTerminal: onTerminal)
            #expect(run.waitForLine(containing: "Reading bmc150_accel (iio:device0)") != nil, "\(run.stderr)")
            if base != nil {
                #expect(run.waitForLine(containing: "Reading the base sensor bmc150_accel (iio:device1)") != nil, "\(run.stderr)")
            }
            try hold(display: pose.display, base: pose.base)
            return run
        }
    }

    /// The value of `property` in calibrate's block for `match` in the hwdb text.
    static func property(_ property: String, of match: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard
            let start = lines.indices.first(where: {
                $0 > 0 && lines[$0] == match && lines[$0 - 1].hasPrefix("# orientd calibrate:")
            })
        else { return nil }
        for line in lines[(start + 1)...] {
            guard line.hasPrefix(" ") else { return nil }
            if line.hasPrefix(" \(property)=") { return String(line.dropFirst(property.count + 2)) }
        }
        return nil
    }

    /// In CI a missing systemd-hwdb fails the tests that use it (`make test` extracts one) instead of skipping them.
    static let inCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false

    static let displayMatch = "sensor:modalias:acpi:BOSC0200::dmi:*svnACME:*pnSlate10X:*"
    static let baseMatch = "sensor:modalias:acpi:KIOX010A::dmi:*svnACME:*pnSlate10X:*"

    @Test(
        "A convertible, display and base in different rotations: the blocks written, systemd-hwdb gives each sensor its matrix and the base ACCEL_LOCATION=base, and the daemon on them reads posture, hinge angle and portrait"
    )
    func convertible() throws {
        let displayMatrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let baseMatrix = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")
        let machine = try Machine(display: displayMatrix, base: baseMatrix)
        let folder = try DaemonHarness.makeFolder()
        let file = folder + "/local.hwdb"
        let open110 = HingeGeometry.display(fromBase: Vector3(0, 0, -1), hingeAngle: 110)
        let poses: [(display: Vector3, base: Vector3?)] = [
            (open110, Vector3(0, 0, -1)),  // open on a table
            (Vector3(1, 0, 0), Vector3(1, 0, 0)),  // stood on its right side
            (Vector3(0, 0, -1), Vector3(0, 0, 1)),  // folded into a tablet, screen up
        ]
        // Lying on the desk until the tool waits for pose 1, then each pose held until the tool says it took it.
        let run = try machine.startCalibrate(["--hwdb-file", file, "--json"], pose: Self.foldedOnTheDesk)
        #expect(run.waitForLine(containing: "Waiting for pose 1") != nil, "\(run.stderr)")
        for (index, pose) in poses.enumerated() {
            try machine.hold(display: pose.display, base: pose.base)
            #expect(run.waitForLine(containing: "Pose \(index + 1) taken") != nil, "\(run.stderr)")
        }
        let result = run.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written) == displayMatrix.text, "\(written)")
        #expect(Self.property("ACCEL_MOUNT_MATRIX", of: Self.baseMatch, in: written) == baseMatrix.text, "\(written)")
        #expect(Self.property("ACCEL_LOCATION", of: Self.baseMatch, in: written) == "base")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let base = report["base"] as? [String: Any]
        #expect(base?["mount-matrix"] as? String == baseMatrix.text, "\(result.stdout)")
        #expect(base?["match"] as? String == Self.baseMatch)
        let checks = (report["display"] as? [String: Any])?["checks"] as? [[String: Any]]
        #expect(checks?.map { $0["pose"] as? Int } == [1], "a convertible's display is checked standing open")
        #expect(report["written"] as? Bool == true)
        #expect(report["hwdb-updated"] as? Bool == false, "only the system's own file is loaded into the hwdb")

        // Compiled by systemd-hwdb, the file gives each sensor's lookup key (as 60-sensor.rules builds it) its block.
        if SystemdHwdb.tool != nil || Self.inCI {
            let display = try SystemdHwdb.query("sensor:modalias:acpi:BOSC0200::\(Self.dmi)", file: file)
            #expect(display == ["ACCEL_MOUNT_MATRIX": displayMatrix.text], "\(display)")
            let base = try SystemdHwdb.query("sensor:modalias:acpi:KIOX010A::\(Self.dmi)", file: file)
            #expect(base == ["ACCEL_MOUNT_MATRIX": baseMatrix.text, "ACCEL_LOCATION": "base"], "\(base)")
        }
        // The daemon on the properties the file gives (checked above), as udev would hand them to it.
        let fixed = try Machine(
            display: displayMatrix, base: baseMatrix, displayProperties: ["ACCEL_MOUNT_MATRIX": displayMatrix.text],
            baseProperties: ["ACCEL_MOUNT_MATRIX": baseMatrix.text, "ACCEL_LOCATION": "base"])
        try fixed.hold(
            display: HingeGeometry.display(fromBase: Vector3(0, 0, -1), hingeAngle: 100), base: Vector3(0, 0, -1),
            jitters: false)
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: fixed.environment)
        try daemon.waitUntilListening()
        // θ is filtered: wait for it to settle rather than take the first reading.
        func near100(_ state: ServerMessage) -> Bool { state.hingeAngle.map { abs($0 - 100) <= 3 } ?? false }
        let laptop = try daemon.poll { $0.posture == "laptop" && $0.device == "portrait" && near100($0) }
        #expect(laptop.map { $0.posture == "laptop" && $0.device == "portrait" && near100($0) } == true, "\(String(describing: laptop))")
    }

    @Test(
        "On a terminal, Enter takes pose 1 where the device stood from the start; Ctrl-C (SIGINT) ends it with 130, the hwdb file as it was and nothing beside it"
    )
    func enterThenCtrlC() throws {
        let folder = try DaemonHarness.makeFolder()
        let file = folder + "/61-sensor-local.hwdb"
        let before =
            "# mine\nsensor:modalias:acpi:SMO8500*:dmi:*svnFoo:*pnBar:*\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n"
        try before.write(toFile: file, atomically: false, encoding: .utf8)
        let machine = try Machine(display: try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1"))
        // Standing upright from the start (a convertible already open on the desk): stillness takes nothing.
        let run = try machine.startCalibrate(["--hwdb-file", file], pose: (Vector3(0, -1, 0), nil), onTerminal: true)
        #expect(run.waitForLine(containing: "Enter takes it at once") != nil, "\(run.stderr)")
        #expect(run.waitForLine(containing: "or press Enter if it is in pose 1 already") != nil, "\(run.stderr)")
        run.pressEnter()
        #expect(run.waitForLine(containing: "Pose 1 taken as upright") != nil, "\(run.stderr)")
        try run.hangUp()
        let result = run.finish()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted: nothing was written"), "\(result.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["61-sensor-local.hwdb"])
    }
}
