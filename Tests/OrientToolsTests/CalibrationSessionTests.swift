import Foundation
import Logging
import OrientCore
import OrientSampleSource
import OrientSensors
@testable import OrientTools
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `orientd calibrate`'s session in the test's process: scripted accelerometers held in one pose after another, a
/// scripted terminal and signals, and a hwdb file in a folder of the test's. What the process adds (udev, libiio,
/// a real terminal and SIGINT, systemd-hwdb and the daemon reading the result) is CalibrateLiveTests'.
@Suite("Calibration session, in process", .timeLimit(.minutes(1)))
struct CalibrationSessionTests {
    static let dmi =
        "dmi:bvnACME:bvr1.07:bd03/14/2025:br1.7:svnACME:pnSlate10X:pvrRev2:rvnACME:rnSL10:cvnACME:ct30:cvr1:"
    static let displayMatch = "sensor:modalias:acpi:BOSC0200::dmi:*svnACME:*pnSlate10X:*"
    static let displayPath = "/sys/devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/i2c-BOSC0200:00/iio:device0"
    static let basePath = "/sys/devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/i2c-KIOX010A:00/iio:device1"
    /// Gravity in the display frame in each pose of a tablet.
    static let tabletPoses = [Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1)]
    /// A tablet lying face up on the desk.
    static let onTheDesk = Vector3(0, 0, -1)
    static let tabletMountings = [
        "0, -1, 0; 1, 0, 0; 0, 0, 1", "-1, 0, 0; 0, -1, 0; 0, 0, 1", "0, 1, 0; 0, 0, -1; -1, 0, 0",
        "0, 0, 1; -1, 0, 0; 0, -1, 0",
    ]

    /// A folder of the test's own, with the hwdb file's path in it.
    let folder: String
    var file: String { folder + "/61-sensor-local.hwdb" }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString.prefix(8))")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// What a session said and how often it wrote; the test's Enter key and signals.
    final class Terminal: Sendable {
        private let lines = Mutex<[String]>([])
        private let writes = Mutex(0)
        private let heard = Mutex<@Sendable (String) -> Void>({ _ in })
        let (signals, signal) = AsyncStream.makeStream(of: Int32.self)
        private let enter = Mutex<(@Sendable () -> Void)?>(nil)

        var said: [String] { lines.withLock { $0 } }
        /// How many times the session wrote a file.
        var written: Int { writes.withLock { $0 } }

        /// What the test does when a line is said (types Enter, sends a signal, moves the device on).
        func onLine(_ handler: @escaping @Sendable (String) -> Void) { heard.withLock { $0 = handler } }

        /// Types Enter on the terminal.
        func pressEnter() { enter.withLock { $0 }?() }

        /// Ctrl-C.
        func interrupt() { signal.yield(SIGINT) }

        func environment(readsEnter: Bool) -> CalibrateEnvironment {
            CalibrateEnvironment(
                readFile: { path in
                    FileManager.default.fileExists(atPath: path) ? try String(contentsOfFile: path, encoding: .utf8) : nil
                },
                writeFile: { text, path in
                    self.writes.withLock { $0 += 1 }
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                },
                say: { line in
                    self.lines.withLock { $0.append(line) }
                    self.heard.withLock { $0 }(line)
                },
                signals: signals, readsEnter: readsEnter, logger: Logger(label: "test"))
        }

        func readLines(_ line: @escaping @Sendable () -> Void) { enter.withLock { $0 = line } }
    }

    /// A tablet's sensor (or a convertible's two) as `bmc150_accel` under an i2c parent, on a machine with DMI data
    /// unless `dmi` is nil, whose source sends `script`.
    static func machine(
        _ script: [SensorEvent], inUse: MountMatrix = .identity, from source: SensorDescription.MatrixSource = .identity,
        base: [SensorEvent]? = nil, baseModalias: String = "acpi:KIOX010A:", dmi: String? = dmi,
        terminal: Terminal
    ) -> CalibrationMachine<ScriptedSampleSource> {
        let display = AccelerometerCandidate(id: "iio:device0", path: displayPath, name: "bmc150_accel")
        let opened = SensorEvent.opened(
            SensorDescription(
                id: "iio:device0", name: "bmc150_accel", mode: .polled, mountMatrix: inUse, mountMatrixSource: source))
        let baseSensor = base.map { _ in
            AccelerometerCandidate(id: "iio:device1", path: basePath, name: "bmc150_accel", locationProperty: "base")
        }
        let parents = [displayPath: "acpi:BOSC0200:", basePath: baseModalias]
        return CalibrationMachine(
            sensors: CalibrationSensors(display: display, base: baseSensor), dmiModalias: dmi,
            parentModalias: { parents[$0] }, display: ScriptedSampleSource([opened] + script),
            base: base.map { ScriptedSampleSource($0) }, readLines: terminal.readLines)
    }

    /// Runs the session on `machine`: its report, or why it ended without one.
    static func run(
        _ machine: CalibrationMachine<ScriptedSampleSource>, writing file: String, writes: Bool = true,
        readsEnter: Bool = false, _ terminal: Terminal
    ) async -> Result<CalibrationReport, CalibrateFailure> {
        let request = CalibrateRequest(device: nil, baseDevice: nil, hwdbFile: file, writes: writes)
        do {
            return .success(try await CalibrationSession.run(request, terminal.environment(readsEnter: readsEnter), on: machine))
        } catch {
            return .failure(error)
        }
    }

    /// Lying on the desk while the instruction is read, then each pose in turn.
    static func walk(_ mounting: MountMatrix, _ poses: [Vector3] = tabletPoses, from start: Vector3 = onTheDesk)
        -> [SensorEvent]
    {
        var held = HeldPoses(mounting: mounting)
        return held.hold(start, seconds: 3) + held.hold(poses)
    }

    @Test(
        "A tablet in several rotations: the poses said in order, the matrix written in place of calibrate's earlier block, a person's kept; the report says what was in use",
        arguments: tabletMountings)
    func tablet(_ mounting: String) async throws {
        let matrix = try MountMatrix(parsing: mounting)
        let mine = "# by hand\n\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n"
        let earlier = "\n# orientd calibrate: display accelerometer bmc150_accel\n\(Self.displayMatch)\n"
        try (mine + earlier + " ACCEL_MOUNT_MATRIX=0, 0, 1; 0, 1, 0; -1, 0, 0\n\n# the end\n").write(
            toFile: file, atomically: false, encoding: .utf8)
        let terminal = Terminal()
        let report = try await Self.run(Self.machine(Self.walk(matrix), terminal: terminal), writing: file, terminal).get()

        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written == mine + earlier + " ACCEL_MOUNT_MATRIX=\(matrix.text)\n\n# the end\n", "\(written)")
        #expect(report.written && !report.hwdbUpdated)
        #expect(report.text.contains("Written to \(file):\n\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=\(matrix.text)\n"))
        #expect(report.text.contains("in use now: 1, 0, 0; 0, 1, 0; 0, 0, 1 (from none (identity)): wrong"))
        #expect(report.text.contains("60-sensor.hwdb"), "the text for systemd")
        #expect(report.notes.first?.contains("is not the system's local hwdb file") == true)
        // The desk is no pose: pose 1 waits for the device to be stood up, then each pose is asked for, taken, and
        // the next asked for.
        let steps = terminal.said.filter { $0.hasPrefix("Pose ") || $0.hasPrefix("Waiting for pose 1") }
            .map { $0.prefix { $0 != ":" } }
        #expect(
            steps == [
                "Pose 1 of 4", "Waiting for pose 1", "Pose 1 taken as upright", "Pose 2 of 4",
                "Pose 2 taken as left edge up", "Pose 3 of 4", "Pose 3 taken as upside down", "Pose 4 of 4",
                "Pose 4 taken as lying flat",
            ], "\(terminal.said)")
        #expect(terminal.said.first == "Calibrating bmc150_accel (iio:device0).")
        #expect(terminal.said.contains("Reading bmc150_accel (iio:device0): mount matrix now 1, 0, 0; 0, 1, 0; 0, 0, 1 (from none (identity))."))
        #expect(terminal.said.last == "wrote \(file)")
    }

    @Test("Laid face up after starting on its edge, then the poses: pose 1 came one step early, so nothing is written")
    func shiftedByOne() async throws {
        let terminal = Terminal()
        // Standing on its left edge in a dock when calibrate starts, then laid on the desk: a movement, and then
        // stillness face up, taken as pose 1. The person's upright becomes pose 2, and so on.
        let script = Self.walk(
            try MountMatrix(parsing: Self.tabletMountings[3]), [Self.onTheDesk] + Self.tabletPoses.dropLast(),
            from: Vector3(-1, 0, 0))
        let result = await Self.run(Self.machine(script, terminal: terminal), writing: file, terminal)
        #expect(terminal.said.filter { $0.hasPrefix("Pose") && $0.contains(" taken as ") }.count == 4, "\(terminal.said)")
        #expect(result.failure?.status == 65)
        #expect(result.failure?.description.contains("most likely a pose was taken before you made pose 1") == true)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("Nothing is written with --no-write, nor when pose 4 disagrees (pose 2 on the wrong edge)")
    func nothingWritten() async throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[3])
        let terminal = Terminal()
        let measured = try await Self.run(
            Self.machine(Self.walk(matrix), terminal: terminal), writing: file, writes: false, terminal
        ).get()
        #expect(!measured.written)
        #expect(measured.text.contains("hwdb quirk (not written):\n\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=\(matrix.text)\n"))
        #expect(!FileManager.default.fileExists(atPath: file))

        // Stood on its left edge (right edge up) in pose 2: the matrix is turned half a turn, and lying flat reads
        // face down.
        let wrongEdge = [Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1)]
        let refused = await Self.run(Self.machine(Self.walk(matrix, wrongEdge), terminal: terminal), writing: file, terminal)
        let failure = try #require(refused.failure)
        #expect(failure.status == 65)
        #expect(failure.description.contains("face down instead of up: in pose 2 it probably stood on its left edge"))
        #expect(failure.description.contains("Nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(terminal.written == 0)
    }

    @Test("Without DMI data no match line can be built: said before any pose, and --no-write measures anyway")
    func noDMI() async throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[0])
        let terminal = Terminal()
        let machine = Self.machine(Self.walk(matrix), dmi: nil, terminal: terminal)
        let refused = await Self.run(machine, writing: file, terminal)
        #expect(refused.failure?.status == 69)
        #expect(
            refused.failure?.description.contains(
                "cannot build the hwdb match line: the kernel gives no DMI modalias") == true)
        #expect(terminal.said.isEmpty && !machine.display.wasRead, "before any pose: \(terminal.said)")

        let measured = try await Self.run(
            Self.machine(Self.walk(matrix), dmi: nil, terminal: terminal), writing: file, writes: false, terminal
        ).get()
        #expect(measured.display.mountMatrix == matrix.text)
        #expect(measured.display.match == nil)
        #expect(measured.notes.first?.contains("no hwdb match line") == true, "\(measured.notes)")
        let json = try JSONSerialization.jsonObject(with: Data(try measured.json().utf8)) as? [String: Any]
        #expect((json?["display"] as? [String: Any])?["mount-matrix"] as? String == matrix.text)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("Display and base sensors with the same parent modalias: one match would fit both, so nothing is written")
    func sharedModalias() async throws {
        let terminal = Terminal()
        let machine = Self.machine(Self.walk(.identity), base: [], baseModalias: "acpi:BOSC0200:", terminal: terminal)
        let refused = await Self.run(machine, writing: file, terminal)
        #expect(refused.failure?.status == 69)
        #expect(
            refused.failure?.description.contains("the display and base sensors have the same parent modalias") == true)
        #expect(!machine.display.wasRead && machine.base?.wasRead == false, "refused before reading")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("A sensor whose matrix is already right: said so, and nothing written")
    func alreadyRight() async throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[2])
        let terminal = Terminal()
        let machine = Self.machine(Self.walk(matrix), inUse: matrix, from: .udevProperty, terminal: terminal)
        let report = try await Self.run(machine, writing: file, terminal).get()
        #expect(report.text.contains("(from udev ACCEL_MOUNT_MATRIX): already right"), "\(report.text)")
        #expect(report.text.contains("nothing to write"))
        #expect(!report.written)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test(
        "Refused: near the last pose, the same pose again, motion, and 3 g; the session then goes on to the right matrix"
    )
    func refusals() async throws {
        let matrix = try MountMatrix(parsing: Self.tabletMountings[0])
        var held = HeldPoses(mounting: matrix)
        var script = held.hold(Self.onTheDesk, seconds: 3) + held.hold(Self.tabletPoses[0])
        // Tipped back 20 degrees: still too close to pose 1; then back in pose 1.
        script += held.hold(Vector3(0, -cos(Double.pi / 9), -sin(Double.pi / 9))) + held.hold(Self.tabletPoses[0])
        // Shaken in pose 2, about 2.3 m/s² on each axis, for longer than the tool waits before saying so.
        script += held.hold(Self.tabletPoses[1], seconds: 5, noise: 2.3)
        script += held.hold(Self.tabletPoses[1], g: 3) + held.hold(Array(Self.tabletPoses.dropFirst()))
        let terminal = Terminal()
        let report = try await Self.run(Self.machine(script, terminal: terminal), writing: file, terminal).get()
        let refusals = terminal.said.filter { $0.hasPrefix("Pose 2 not taken") }
        #expect(refusals.count == 4, "\(terminal.said)")
        #expect(refusals.first?.contains("it is only 20° from pose 1; it needs a quarter turn") == true)
        #expect(refusals.dropFirst().first?.contains("it is only 0° from pose 1") == true)
        #expect(refusals.dropFirst(2).first?.contains("the device is moving") == true)
        #expect(refusals.last?.contains("the display sensor reads 3.0 g while still, far from 1 g") == true)
        // Held right at last, it goes on.
        #expect(report.display.mountMatrix == matrix.text)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("\(Self.displayMatch)\n ACCEL_MOUNT_MATRIX=\(matrix.text)\n"), "\(written)")
    }

    @Test("With Enter: said so; Enter takes pose 1 where the device stood from the start, and is refused while it moves")
    func enter() async throws {
        var held = HeldPoses(mounting: try MountMatrix(parsing: Self.tabletMountings[0]))
        // Standing upright from the start (a convertible already open on the desk): stillness takes nothing.
        let terminal = Terminal()
        let machine = Self.machine(held.hold(Self.tabletPoses[0], seconds: 3), terminal: terminal)
        // Shaken in pose 2 once pose 1 is taken, until the tool says so.
        let shaken = held.hold(Self.tabletPoses[1], seconds: 5, noise: 2.3)
        let display = machine.display
        terminal.onLine { line in
            if line.hasPrefix("Waiting for pose 1") { terminal.pressEnter() }
            if line.hasPrefix("Pose 1 taken") { display.send(shaken) }
            // The tool says the device moves: Enter then. Its answer, or a pose taken, ends the session.
            let refusals = terminal.said.filter { $0.hasPrefix("Pose 2 not taken") }.count
            if line.hasPrefix("Pose 2 not taken") && refusals == 1 { terminal.pressEnter() }
            if line.hasPrefix("Pose 2 not taken") && refusals == 2 || line.hasPrefix("Pose 2 taken") {
                terminal.interrupt()
            }
        }
        let result = await Self.run(machine, writing: file, readsEnter: true, terminal)
        #expect(terminal.said.contains { $0.hasSuffix("; Enter takes it at once.") })
        #expect(terminal.said.contains { $0.contains("or press Enter if it is in pose 1 already") }, "\(terminal.said)")
        #expect(terminal.said.contains { $0.hasPrefix("Pose 1 taken as upright") }, "\(terminal.said)")
        let refusals = terminal.said.filter { $0.hasPrefix("Pose 2 not taken") }
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.contains("the device is moving") }, "\(terminal.said)")
        #expect(!terminal.said.contains { $0.hasPrefix("Pose 2 taken") })
        #expect(result.failure?.status == 130)
    }

    @Test("Ctrl-C during the session, or the sensor going away, leaves the hwdb file as it was and nothing beside it")
    func interrupted() async throws {
        let before =
            "# mine\nsensor:modalias:acpi:SMO8500*:dmi:*svnFoo:*pnBar:*\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n"
        try before.write(toFile: file, atomically: false, encoding: .utf8)
        let matrix = try MountMatrix(parsing: Self.tabletMountings[1])

        // Ctrl-C once pose 2 is taken.
        let terminal = Terminal()
        terminal.onLine { line in
            if line.hasPrefix("Pose 2 taken") { terminal.interrupt() }
        }
        let script = Self.walk(matrix, Array(Self.tabletPoses.prefix(2)))
        let interrupted = await Self.run(Self.machine(script, terminal: terminal), writing: file, terminal)
        #expect(interrupted.failure?.status == 130)
        #expect(interrupted.failure?.description == "interrupted: nothing was written")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["61-sensor-local.hwdb"])

        // The sensor removed once pose 1 is taken.
        let vanishing = Terminal()
        let gone = await Self.run(
            Self.machine(Self.walk(matrix, [Self.tabletPoses[0]]) + [.lost(reason: "iio:device0 was removed")], terminal: vanishing),
            writing: file, vanishing)
        #expect(vanishing.said.contains { $0.hasPrefix("Pose 1 taken") }, "\(vanishing.said)")
        #expect(gone.failure?.status == 69)
        #expect(gone.failure?.description.contains("the display sensor went away (iio:device0 was removed)") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["61-sensor-local.hwdb"])
        #expect(terminal.written + vanishing.written == 0)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
