import Foundation
import OrientCore
import OrientProtocol
import Testing

/// `orientd calibrate` as a process against emulated accelerometers (umockdev), mounted in various rotations, whose
/// readings a timer moves through the poses with noise; then the daemon on the matrix it wrote.
@Suite(
    "orientd calibrate under umockdev", .serialized,
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct CalibrateLiveTests {
    /// 256 raw is 1 g at this scale.
    static let scale = 0.0383072
    static let dmi =
        "dmi:bvnACME:bvr1.07:bd03/14/2025:br1.7:svnACME:pnSlate10X:pvrRev2:rvnACME:rnSL10:cvnACME:ct30:cvr1:"
    /// Gravity in the display frame in each pose of a tablet.
    static let tabletPoses = [Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1)]
    /// Where a tablet lies when calibrate starts: face up on the desk.
    static let onTheDesk: (display: Vector3, base: Vector3?) = (Vector3(0, 0, -1), nil)
    /// Where a convertible lies: folded into a tablet on the desk, screen up, keys down.
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
            baseProperties: [String: String] = ["ACCEL_LOCATION": "base"], baseModalias: String = "acpi:KIOX010A:",
            hasDMI: Bool = true
        ) throws {
            let testbed = try UmockdevTestbed()
            self.testbed = testbed
            if hasDMI {
                try testbed.describe(
                    "P: /devices/virtual/dmi/id\nE: SUBSYSTEM=dmi\nA: modalias=\(CalibrateLiveTests.dmi)\n")
            }
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
                    "iio:device1", parent: "i2c-KIOX010A:00", modalias: baseModalias, properties: baseProperties)
                base = (basePath, baseMounting)
            } else {
                base = nil
            }
        }

        var environment: [String: String] { testbed.environment }

        /// Holds the device in a pose: gravity `display` in the display frame (and `base` in the base's), `g` times
        /// 1 g, each raw value jittering by up to `noise` counts (0.04 m/s² each) on a timer.
        /// `jitters`: false sets the values once (while a program opens the sensors: see `UmockdevTestbed.hold`).
        func hold(
            display gravity: Vector3, base baseGravity: Vector3? = nil, g: Double = 1, noise: Double = 2, jitters: Bool = true
        ) throws {
            func values(_ gravity: Vector3, _ mounting: MountMatrix) -> [String: Double] {
                // What a sensor mounted as `mounting` reads: Mᵀ · gravity, as M is a rotation.
                let m = mounting.rows
                let s = (m.x * gravity.x + m.y * gravity.y + m.z * gravity.z) * (256 * g)
                return ["in_accel_x_raw": s.x, "in_accel_y_raw": s.y, "in_accel_z_raw": s.z]
            }
            let period = jitters ? 0.04 : 0
            try testbed.hold(display.path, values: values(gravity, display.mounting), noise: noise, period: period)
            if let base, let baseGravity {
                try testbed.hold(base.path, values: values(baseGravity, base.mounting), noise: noise, period: period)
            }
        }

        /// Starts `orientd calibrate` with the device still in `pose`, and once the tool has opened the sensors, lets
        /// the readings jitter with `noise`.
        func startCalibrate(
            _ arguments: [String], pose: (display: Vector3, base: Vector3?), noise: Double = 2, onTerminal: Bool = false
        ) throws -> CalibrateProcess {
            try hold(display: pose.display, base: pose.base, jitters: false)
            let run = try CalibrateProcess(arguments, environment: environment, onTerminal: onTerminal)
            #expect(run.waitForLine(containing: "Reading bmc150_accel (iio:device0)") != nil, "\(run.stderr)")
            if base != nil {
                #expect(run.waitForLine(containing: "Reading the base sensor bmc150_accel (iio:device1)") != nil, "\(run.stderr)")
            }
            try hold(display: pose.display, base: pose.base, noise: noise)
            return run
        }
    }

    static func folder() throws -> String {
        let folder = try DaemonHarness.makeFolder()
        return folder
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

    /// Starts `orientd calibrate` with the device lying on the desk, and waits until it says it waits for pose 1.
    static func startOnTheDesk(_ machine: Machine, _ arguments: [String]) throws -> CalibrateProcess {
        let run = try machine.startCalibrate(arguments, pose: machine.base == nil ? onTheDesk : foldedOnTheDesk)
        #expect(run.waitForLine(containing: "Waiting for pose 1") != nil, "\(run.stderr)")
        return run
    }

    /// Starts a session with the device lying on the desk, then makes the poses: each held until the tool says it
    /// took it.
    static func calibrate(
        _ machine: Machine, poses: [(display: Vector3, base: Vector3?)], arguments: [String]
    ) throws -> (status: Int32?, stdout: String, stderr: String) {
        let run = try startOnTheDesk(machine, arguments)
        for (index, pose) in poses.enumerated() {
            try machine.hold(display: pose.display, base: pose.base)
            #expect(run.waitForLine(containing: "Pose \(index + 1) taken") != nil, "\(run.stderr)")
        }
        return run.finish()
    }

    static let tabletMountings = [
        "0, -1, 0; 1, 0, 0; 0, 0, 1", "-1, 0, 0; 0, -1, 0; 0, 0, 1", "0, 1, 0; 0, 0, -1; -1, 0, 0",
        "0, 0, 1; -1, 0, 0; 0, -1, 0",
    ]

    @Test(
        "A tablet's sensor in several rotations: the matrix written is its mounting, and the daemon on it turns right",
        arguments: tabletMountings)
    func tablet(_ mounting: String) throws {
        let matrix = try MountMatrix(parsing: mounting)
        let machine = try Machine(display: matrix)
        let folder = try Self.folder()
        let file = folder + "/61-sensor-local.hwdb"
        // A person's block for the same match stays; calibrate's earlier one is replaced where it is.
        let mine = "# by hand\n\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n"
        let earlier = "\n# orientd calibrate: display accelerometer bmc150_accel\n\(Self.displayMatch)\n"
        try (mine + earlier + " ACCEL_MOUNT_MATRIX=0, 0, 1; 0, 1, 0; -1, 0, 0\n\n# the end\n").write(
            toFile: file, atomically: false, encoding: .utf8)
        let result = try Self.calibrate(
            machine, poses: Self.tabletPoses.map { ($0, nil) }, arguments: ["--hwdb-file", file])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written == mine + earlier + " ACCEL_MOUNT_MATRIX=\(matrix.text)\n\n# the end\n", "\(written)")
        #expect(Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written) == matrix.text, "\(written)")
        #expect(Self.property("ACCEL_LOCATION", of: Self.displayMatch, in: written) == nil)
        #expect(
            result.stdout.contains("Written to \(file):\n\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=\(matrix.text)\n"),
            "\(result.stdout)")
        #expect(result.stdout.contains("in use now: 1, 0, 0; 0, 1, 0; 0, 0, 1 (from none (identity)): wrong"))
        #expect(result.stdout.contains("60-sensor.hwdb"), "the text for systemd")

        // Compiled by systemd-hwdb, the file gives the sensor's lookup key (as 60-sensor.rules builds it) the matrix.
        var value = try #require(Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written))
        if SystemdHwdb.tool != nil || Self.inCI {
            let properties = try SystemdHwdb.query("sensor:modalias:acpi:BOSC0200::\(Self.dmi)", file: file)
            #expect(properties["ACCEL_MOUNT_MATRIX"] == matrix.text, "\(properties)")
            value = try #require(properties["ACCEL_MOUNT_MATRIX"])
        }
        // The daemon, given that value as udev's property, reads the poses right.
        let fixed = try Machine(display: matrix, displayProperties: ["ACCEL_MOUNT_MATRIX": value])
        try fixed.hold(display: Vector3(0, -1, 0), jitters: false)
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: fixed.environment)
        try daemon.waitUntilListening()
        for (gravity, device) in [
            (Vector3(0, -1, 0), "portrait"), (Vector3(1, 0, 0), "landscape-right"),
            (Vector3(0, 0, -1), "face-up"), (Vector3(-1, 0, 0), "landscape-left"),
        ] {
            try fixed.hold(display: gravity, jitters: false)
            #expect(try daemon.poll { $0.device == device }?.device == device, "\(daemon.log)")
        }
    }

    @Test(
        "Left lying face up while the first instruction is read for 2.5 s, then the poses: the matrix written is right",
        arguments: [tabletMountings[0], tabletMountings[2]])
    func fromTheDesk(_ mounting: String) throws {
        let matrix = try MountMatrix(parsing: mounting)
        let machine = try Machine(display: matrix)
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        let run = try machine.startCalibrate(["--hwdb-file", file], pose: Self.onTheDesk)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(run.waitForLine(containing: "Waiting for pose 1") != nil, "\(run.stderr)")
        #expect(!run.stderr.contains("Pose 1 taken"), "\(run.stderr)")
        for (index, pose) in Self.tabletPoses.enumerated() {
            try machine.hold(display: pose)
            #expect(run.waitForLine(containing: "Pose \(index + 1) taken") != nil, "\(run.stderr)")
        }
        let result = run.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written) == matrix.text, "\(written)")
    }

    @Test("Laid face up after starting on its edge, then the poses: pose 1 came one step early, so nothing is written")
    func shiftedByOne() throws {
        let machine = try Machine(display: try MountMatrix(parsing: Self.tabletMountings[3]))
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        // Standing on its left edge in a dock when calibrate starts, then laid on the desk: a movement, and then
        // stillness face up, taken as pose 1. The person's upright becomes pose 2, and so on.
        let run = try machine.startCalibrate(["--hwdb-file", file], pose: (Vector3(-1, 0, 0), nil))
        #expect(run.waitForLine(containing: "Waiting for pose 1") != nil, "\(run.stderr)")
        for (index, pose) in ([Self.onTheDesk.display] + Self.tabletPoses.dropLast()).enumerated() {
            try machine.hold(display: pose)
            #expect(run.waitForLine(containing: "Pose \(index + 1) taken") != nil, "\(run.stderr)")
        }
        let result = run.finish()
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("most likely a pose was taken before you made pose 1"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test(
        "A convertible: display and base in different rotations, the base's block says ACCEL_LOCATION=base, and the daemon's hinge angle follows"
    )
    func convertible() throws {
        let displayMatrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let baseMatrix = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")
        let machine = try Machine(display: displayMatrix, base: baseMatrix)
        let folder = try Self.folder()
        let file = folder + "/local.hwdb"
        let open110 = HingeGeometry.display(fromBase: Vector3(0, 0, -1), hingeAngle: 110)
        let poses: [(display: Vector3, base: Vector3?)] = [
            (open110, Vector3(0, 0, -1)),  // open on a table
            (Vector3(1, 0, 0), Vector3(1, 0, 0)),  // stood on its right side
            (Vector3(0, 0, -1), Vector3(0, 0, 1)),  // folded into a tablet, screen up
        ]
        let result = try Self.calibrate(machine, poses: poses, arguments: ["--hwdb-file", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written) == displayMatrix.text, "\(written)")
        #expect(Self.property("ACCEL_MOUNT_MATRIX", of: Self.baseMatch, in: written) == baseMatrix.text, "\(written)")
        #expect(Self.property("ACCEL_LOCATION", of: Self.baseMatch, in: written) == "base")
        #expect(written.contains("# orientd calibrate: base accelerometer bmc150_accel\n\(Self.baseMatch)\n"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let base = report["base"] as? [String: Any]
        #expect(base?["mount-matrix"] as? String == baseMatrix.text, "\(result.stdout)")
        #expect(base?["match"] as? String == Self.baseMatch)
        let checks = (report["display"] as? [String: Any])?["checks"] as? [[String: Any]]
        #expect(checks?.map { $0["pose"] as? Int } == [1], "a convertible's display is checked standing open")
        #expect(report["written"] as? Bool == true)
        #expect(report["hwdb-updated"] as? Bool == false, "only the system's own file is loaded into the hwdb")

        if SystemdHwdb.tool != nil || Self.inCI {
            let base = try SystemdHwdb.query("sensor:modalias:acpi:KIOX010A::\(Self.dmi)", file: file)
            #expect(base == ["ACCEL_MOUNT_MATRIX": baseMatrix.text, "ACCEL_LOCATION": "base"], "\(base)")
        }
        let fixed = try Machine(
            display: displayMatrix, base: baseMatrix,
            displayProperties: [
                "ACCEL_MOUNT_MATRIX": try #require(
                    Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written))
            ],
            baseProperties: [
                "ACCEL_MOUNT_MATRIX": try #require(
                    Self.property("ACCEL_MOUNT_MATRIX", of: Self.baseMatch, in: written)),
                "ACCEL_LOCATION": try #require(Self.property("ACCEL_LOCATION", of: Self.baseMatch, in: written)),
            ])
        try fixed.hold(
            display: HingeGeometry.display(fromBase: Vector3(0, 0, -1), hingeAngle: 100), base: Vector3(0, 0, -1),
            jitters: false)
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: fixed.environment)
        try daemon.waitUntilListening()
        // θ is filtered: wait for it to settle rather than take the first reading.
        func near100(_ state: ServerMessage) -> Bool { state.hingeAngle.map { abs($0 - 100) <= 3 } ?? false }
        let laptop = try daemon.poll { $0.posture == "laptop" && $0.device == "portrait" && near100($0) }
        #expect(laptop?.posture == "laptop", "\(daemon.log)")
        #expect(
            laptop.flatMap(\.hingeAngle).map { abs($0 - 100) <= 3 } == true,
            "θ \(String(describing: laptop?.hingeAngle))")
        // Tilted on a lap until the display reads landscape (left edge up): the hinge still reads 100°.
        let tilted = Vector3(0.75, 0, -0.66)
        try fixed.hold(display: tilted, base: HingeGeometry.base(fromDisplay: tilted, hingeAngle: 100), jitters: false)
        let landscape = try daemon.poll { $0.device == "landscape-right" && near100($0) }
        #expect(landscape?.device == "landscape-right", "\(daemon.log)")
        #expect(
            landscape.flatMap(\.hingeAngle).map { abs($0 - 100) <= 3 } == true,
            "θ \(String(describing: landscape?.hingeAngle))")
    }

    @Test(
        "Refused: near the last pose, the same pose again, motion, and 3 g; the session then goes on to the right matrix"
    )
    func refusals() throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[0])
        let machine = try Machine(display: matrix)
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        let run = try Self.startOnTheDesk(machine, ["--hwdb-file", file])
        try machine.hold(display: Self.tabletPoses[0])
        #expect(run.waitForLine(containing: "Pose 1 taken") != nil, "\(run.stderr)")
        // Tipped back 20 degrees: still too close to pose 1.
        var mark = run.mark
        try machine.hold(display: Vector3(0, -cos(Double.pi / 9), -sin(Double.pi / 9)))
        let tipped = run.waitForLine(containing: "Pose 2 not taken", after: mark)
        #expect(tipped?.contains("it is only 20° from pose 1; it needs a quarter turn") == true, "\(run.stderr)")
        mark = run.mark
        try machine.hold(display: Self.tabletPoses[0])
        let same = run.waitForLine(containing: "Pose 2 not taken", after: mark)
        #expect(same?.contains("it is only 0° from pose 1") == true, "\(run.stderr)")
        mark = run.mark
        // Shaken: about 2.3 m/s² of noise on each axis, for as long as it takes the tool to say so.
        try machine.hold(display: Self.tabletPoses[1], noise: 60)
        let moving = run.waitForLine(containing: "Pose 2 not taken", after: mark)
        #expect(moving?.contains("the device is moving") == true, "\(run.stderr)")
        mark = run.mark
        try machine.hold(display: Self.tabletPoses[1], g: 3)
        let heavy = run.waitForLine(containing: "Pose 2 not taken", after: mark)
        #expect(
            heavy?.contains("the display sensor reads 3") == true
                && heavy?.contains("g while still, far from 1 g") == true,
            "\(run.stderr)")
        // Held right at last, it goes on (a scale learned from the 3 g is learned back from 1 g).
        try machine.hold(display: Self.tabletPoses[1])
        #expect(run.waitForLine(containing: "Pose 2 taken", after: mark) != nil, "\(run.stderr)")
        try machine.hold(display: Self.tabletPoses[2])
        #expect(run.waitForLine(containing: "Pose 3 taken", after: mark) != nil, "\(run.stderr)")
        try machine.hold(display: Self.tabletPoses[3])
        let result = run.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.property("ACCEL_MOUNT_MATRIX", of: Self.displayMatch, in: written) == matrix.text, "\(written)")
    }

    @Test("Ctrl-C during the session, or the sensor going away, leaves the hwdb file as it was and nothing beside it")
    func interrupted() throws {
        let folder = try Self.folder()
        let file = folder + "/61-sensor-local.hwdb"
        let before =
            "# mine\nsensor:modalias:acpi:SMO8500*:dmi:*svnFoo:*pnBar:*\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n"
        try before.write(toFile: file, atomically: false, encoding: .utf8)

        let machine = try Machine(display: try MountMatrix(parsing: Self.tabletMountings[1]))
        let run = try Self.startOnTheDesk(machine, ["--hwdb-file", file])
        try machine.hold(display: Self.tabletPoses[0])
        #expect(run.waitForLine(containing: "Pose 1 taken") != nil, "\(run.stderr)")
        try machine.hold(display: Self.tabletPoses[1])
        #expect(run.waitForLine(containing: "Pose 2 taken") != nil, "\(run.stderr)")
        run.process.interrupt()
        let result = run.finish()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted: nothing was written"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["61-sensor-local.hwdb"])

        let vanishing = try Machine(display: try MountMatrix(parsing: Self.tabletMountings[1]))
        let second = try Self.startOnTheDesk(vanishing, ["--hwdb-file", file])
        try vanishing.hold(display: Self.tabletPoses[0])
        #expect(second.waitForLine(containing: "Pose 1 taken") != nil, "\(second.stderr)")
        try vanishing.testbed.remove(vanishing.display.path)
        let gone = second.finish()
        #expect(gone.status == 69, "\(gone.stderr)")
        #expect(gone.stderr.contains("the display sensor went away"), "\(gone.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["61-sensor-local.hwdb"])
    }

    @Test("Nothing is written with --no-write, nor when pose 4 disagrees (pose 2 on the wrong edge)")
    func nothingWritten() throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[3])
        let machine = try Machine(display: matrix)
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        let measured = try Self.calibrate(
            machine, poses: Self.tabletPoses.map { ($0, nil) }, arguments: ["--hwdb-file", file, "--no-write"])
        #expect(measured.status == 0, "\(measured.stderr)")
        #expect(
            measured.stdout.contains(
                "hwdb quirk (not written):\n\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=\(matrix.text)\n"),
            "\(measured.stdout)")
        #expect(!FileManager.default.fileExists(atPath: file))

        // Stood on its left edge (right edge up) in pose 2: the matrix is turned half a turn, and lying flat reads
        // face down.
        let wrongEdge = [Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1)]
        let refused = try Self.calibrate(machine, poses: wrongEdge.map { ($0, nil) }, arguments: ["--hwdb-file", file])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("face down instead of up: in pose 2 it probably stood on its left edge"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("Nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test(
        "On a terminal, Enter takes pose 1 where the device stood from the start, and refuses a pose while it moves")
    func enterOnTerminal() throws {
        let machine = try Machine(display: try MountMatrix(parsing: Self.tabletMountings[0]))
        let run = try machine.startCalibrate([], pose: (Self.tabletPoses[0], nil), onTerminal: true)
        #expect(run.waitForLine(containing: "Enter takes it at once") != nil, "\(run.stderr)")
        #expect(run.waitForLine(containing: "Pose 1 of 4") != nil)
        // Standing upright from the start (a convertible already open on the desk): stillness takes nothing.
        let waiting = run.waitForLine(containing: "Waiting for pose 1")
        #expect(waiting?.contains("or press Enter if it is in pose 1 already") == true, "\(run.stderr)")
        run.pressEnter()
        #expect(run.waitForLine(containing: "Pose 1 taken as upright") != nil, "\(run.stderr)")
        // Shaken in pose 2, about 2.3 m/s² on each axis, until the tool says so; then Enter is refused on the spot.
        try machine.hold(display: Self.tabletPoses[1], noise: 60)
        let shaking = run.waitForLine(containing: "Pose 2 not taken", timeout: 30)
        #expect(shaking?.contains("the device is moving") == true, "\(run.stderr)")
        let mark = run.mark
        run.pressEnter()
        let answer = run.waitForLine(containing: "Pose 2 not taken", after: mark, timeout: 30)
        #expect(answer?.contains("the device is moving") == true, "\(run.stderr)")
        #expect(!run.stderr.contains("Pose 2 taken"))
        try run.hangUp()
        let result = run.finish()
        #expect(result.status == 130, "\(result.stderr)")
    }

    @Test("Without DMI data no match line can be built: said before any pose, and --no-write measures anyway")
    func noDMI() throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[0])
        let machine = try Machine(display: matrix, hasDMI: false)
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        try machine.hold(display: Self.tabletPoses[0], jitters: false)
        let refused = try CalibrateProcess(["--hwdb-file", file], environment: machine.environment).finish()
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("cannot build the hwdb match line: the kernel gives no DMI modalias"),
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("Pose 1 of"))
        let measured = try Self.calibrate(
            machine, poses: Self.tabletPoses.map { ($0, nil) }, arguments: ["--no-write", "--json"])
        #expect(measured.status == 0, "\(measured.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(measured.stdout.utf8)) as? [String: Any]
        #expect((report?["display"] as? [String: Any])?["mount-matrix"] as? String == matrix.text, "\(measured.stdout)")
        #expect((report?["notes"] as? [String])?.first?.contains("no hwdb match line") == true)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("Display and base sensors with the same parent modalias: one match would fit both, so nothing is written")
    func sharedModalias() throws {
        let machine = try Machine(display: .identity, base: .identity, baseModalias: "acpi:BOSC0200:")
        try machine.hold(display: Self.tabletPoses[0], base: Vector3(0, 0, -1), jitters: false)
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        let refused = try CalibrateProcess(["--hwdb-file", file], environment: machine.environment).finish()
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the display and base sensors have the same parent modalias"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("A sensor whose matrix is already right: said so, and nothing written")
    func alreadyRight() throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[2])
        let machine = try Machine(display: matrix, displayProperties: ["ACCEL_MOUNT_MATRIX": matrix.text])
        let file = try Self.folder() + "/61-sensor-local.hwdb"
        let result = try Self.calibrate(
            machine, poses: Self.tabletPoses.map { ($0, nil) }, arguments: ["--hwdb-file", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(from udev ACCEL_MOUNT_MATRIX): already right"), "\(result.stdout)")
        #expect(result.stdout.contains("nothing to write"))
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
