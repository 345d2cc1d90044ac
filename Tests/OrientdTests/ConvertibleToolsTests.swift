import Foundation
import OrientCore
import OrientProtocol
import Testing

/// `orientd record`, `orientd doctor` and `orientctl status` on a convertible's two emulated accelerometers
/// (umockdev): the whole path, once each. What doctor's report makes of what it read, and what record writes of
/// each event, are tested in process (Tests/OrientToolsTests: DoctorConvertibleTests, DoctorLightAndCompassTests,
/// DoctorJSONTests, TraceRecordingTests); status's text, in Tests/OrientctlCommandsTests.
@Suite("Convertible record, doctor and status under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct ConvertibleToolsTests {
    typealias Live = ConvertibleLiveTests

    /// The base sensor mounted upside down (turned 180° about x): its raw z reads +g when the keyboard lies on a
    /// desk. Read without this matrix, every hinge angle would be off by 180°, so the tests see whether it is kept.
    static let upsideDown = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, -1, 0), z: Vector3(0, 0, -1))

    static func orientctl(_ arguments: [String]) throws -> OrientdProcess.Output {
        try OrientdProcess.run(arguments, executable: OrientdProcess.orientctl)
    }

    /// Each line of `classify`'s output as a JSON object.
    static func changes(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The sample lines of a trace file.
    static func sampleLines(_ path: String) -> [Substring] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.first?.isNumber == true || $0.first == "-" }
    }

    @Test("record writes both sensors as a v2 trace that classify replays: the hinge angle as emulated, before and after a fold; --display-only, v1")
    func recordBoth() throws {
        let convertible = try Live.Convertible(display: Live.display(tilt: 10), hinge: 120, baseMatrix: Self.upsideDown)
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trace = folder + "/fold.trace"

        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: OrientdProcess.binary)
        // Stopped with Ctrl-C once the fold is in the file, however long a loaded machine takes to fold it; the
        // duration only bounds it.
        recorder.arguments = ["record", "--output", trace, "--duration", "60", "--rate", "50"]
        recorder.environment = ProcessInfo.processInfo.environment.merging(convertible.testbed.environment) { $1 }
        let errors = Pipe()
        recorder.standardError = errors
        try recorder.run()
        /// Waits until the trace holds `count` samples, for at most 10 s.
        func waitForSamples(_ count: Int) {
            let deadline = Date().addingTimeInterval(10)
            while Self.sampleLines(trace).count < count, Date() < deadline, recorder.isRunning { usleep(50_000) }
        }
        // A second at 120° before folding, so that the trace begins in laptop posture; half a second at 300° after.
        waitForSamples(50)
        try convertible.fold(from: (10, 120), to: (30, 300))
        waitForSamples(Self.sampleLines(trace).count + 25)
        recorder.interrupt()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("and the base sensor iio:device0 (accel_3d)"), "\(stderr)")

        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let preamble = text.split(separator: "\n").prefix { !($0.first?.isNumber ?? false) }
        #expect(preamble.first == "# orientd trace v2")
        #expect(preamble.contains("# mount-matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1"))
        #expect(preamble.contains("# base-mount-matrix: 1, 0, 0; 0, -1, 0; 0, 0, -1"))
        #expect(preamble.contains("# base-source: iio:device0 accel_3d"))
        #expect(preamble.contains("# base-mount-matrix-source: udev ACCEL_MOUNT_MATRIX"))
        #expect(preamble.last == "t,x,y,z,bx,by,bz")
        let samples = Self.sampleLines(trace)
        let times = samples.compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }
        let rate = Double(times.count - 1) / ((times.last ?? 0) - (times.first ?? 0))
        #expect(samples.count >= 75 && rate >= 37.5, "\(samples.count) samples at \(rate) Hz: about 50 Hz asked")
        #expect(samples.allSatisfy { $0.split(separator: ",").count == 7 })
        // The base's columns are its sensor frame: flat on the desk it reads +g on its own z, upside down.
        let first = try #require(samples.first).split(separator: ",").compactMap { Double($0) }
        #expect(first.count == 7 && first[6] > 8, "\(samples.first ?? "")")

        let classified = try OrientdProcess.run(["classify", trace])
        #expect(classified.status == 0, "\(classified.stderr)")
        let changes = try Self.changes(classified.stdout)
        let angles = changes.compactMap { $0["hinge-angle"] as? Double }
        let firstAngle = try #require(angles.first, "\(classified.stdout)")
        #expect(abs(firstAngle - 120) <= 3, "\(classified.stdout)")
        #expect(changes.first { $0["posture"] != nil }?["posture"] as? String == "laptop")
        let lastAngle = try #require(angles.last)
        #expect(abs(lastAngle - 300) <= 3, "\(classified.stdout)")
        #expect(changes.last { $0["tablet-mode"] != nil }?["tablet-mode"] as? Bool == true)

        // --display-only: the display alone, as v1.
        let displayOnly = folder + "/display.trace"
        let recording = try OrientdProcess.run(
            ["record", "--output", displayOnly, "--duration", "1", "--display-only"], environment: convertible.testbed.environment)
        #expect(recording.status == 0, "\(recording.stderr)")
        let v1 = try String(contentsOfFile: displayOnly, encoding: .utf8)
        #expect(v1.hasPrefix("# orientd trace v1\n") && !v1.contains("base-mount-matrix") && v1.contains("\nt,x,y,z\n"))
        #expect(Self.sampleLines(displayOnly).allSatisfy { $0.split(separator: ",").count == 4 })
        #expect(Self.sampleLines(displayOnly).count >= 40)

        // Replayed by the daemon, the trace's base sensor is named as the recording named it.
        let daemon = try DaemonHarness(["--replay", trace, "--speed", "max", "--sampling", "always"])
        try daemon.waitUntilListening()
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.id != nil } != nil, "\(daemon.log)")
        let status = try Self.orientctl(["status", "--socket", daemon.socket])
        #expect(status.stdout.contains("base sensor: \(trace) (iio:device0 accel_3d)\n"), "\(status.stdout)")
        #expect(status.stdout.contains("base mount matrix: 1, 0, 0; 0, -1, 0; 0, 0, -1 from trace metadata\n"))
    }

    @Test("doctor finds the base sensor, keeps its matrix, learns its wrong scale, reads θ as emulated; the machine's switch, a light sensor, no daemon")
    func doctorBoth() throws {
        let convertible = try Live.Convertible(display: Live.display(tilt: 20), hinge: 135, baseMatrix: Self.upsideDown)
        // Twice the scale of its raw values: at rest the base reads 2 g until the source learns the correction.
        try convertible.testbed.set(convertible.basePath, "in_accel_scale", String(2 * Live.scale))
        try convertible.testbed.addTabletModeSwitch(name: "Intel Virtual Buttons")
        _ = try convertible.testbed.addDevice(
            "iio:device2", attributes: LightSensorTests.lightAttributes, properties: LightSensorTests.lightProperties)
        let socket = "/nonexistent/orientd.sock"
        let output = try OrientdProcess.run(
            ["doctor", "--json", "--seconds", "3", "--socket", socket], environment: convertible.testbed.environment)
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect((report["sensor"] as? [String: Any])?["id"] as? String == "iio:device1")
        #expect((report["sensor"] as? [String: Any])?["scale-correction"] == nil, "the display's scale is right")
        let base = try #require(report["base"] as? [String: Any], "\(output.stdout)")
        #expect(base["id"] as? String == "iio:device0")
        #expect(base["name"] as? String == "accel_3d")
        #expect(base["path"] as? String == convertible.basePath)
        #expect(base["location"] as? String == "base")
        #expect(base["location-source"] as? String == "udev ACCEL_LOCATION")
        #expect(base["mount-matrix"] as? String == "1, 0, 0; 0, -1, 0; 0, 0, -1")
        #expect(base["mount-matrix-source"] as? String == "udev ACCEL_MOUNT_MATRIX")
        #expect((base["scale"] as? String)?.hasPrefix("from the device (0.0766144), corrected ×0.5") == true, "\(base)")
        #expect(abs((base["scale-correction"] as? Double ?? 0) - 0.5) < 0.01, "\(base)")
        let warnings = report["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("base accelerometer iio:device0: readings at rest are 2 g") }, "\(warnings)")
        let reading = try #require(base["reading"] as? [String: Any])
        #expect((reading["z"] as? Double).map { $0 < -8 } == true, "gravity in the base's device frame: keys up")
        let hinge = try #require(report["hinge"] as? [String: Any], "\(output.stdout)")
        let angle = try #require(hinge["angle"] as? Double, "\(hinge)")
        #expect(abs(angle - 135) <= 3)
        #expect(hinge["posture"] as? String == "laptop")
        #expect(hinge["tablet-mode"] as? Bool == false)

        let switches = try #require((report["tablet-mode"] as? [String: Any])?["switches"] as? [[String: Any]], "\(output.stdout)")
        #expect(switches.map { $0["node"] as? String } == ["/dev/input/event6"])
        #expect(switches.first?["is-orientds"] as? Bool == false)
        // Read for the same seconds through the daemon's reading sources: raw 100 at scale 0.5.
        let light = (report["reading-sensors"] as? [[String: Any]])?.first { $0["kind"] as? String == "light" }
        #expect(light?["id"] as? String == "iio:device2" && light?["name"] as? String == "als", "\(report["missing-reading-sensors"] ?? "")")
        #expect((light?["light"] as? [String: Any])?["last"] as? Double == 50)
        let daemon = report["daemon"] as? [String: Any]
        #expect(daemon?["socket"] as? String == socket)
        #expect((daemon?["unreachable"] as? String)?.contains("orientd is not running (cannot connect to \(socket)") == true, "\(daemon ?? [:])")
    }

    @Test("orientctl status names the base sensor, and says none once it is unplugged")
    func statusBoth() throws {
        let convertible = try Live.Convertible(display: Live.display(tilt: 10), hinge: 100, baseMatrix: Self.upsideDown)
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: convertible.testbed.environment)
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.posture == "laptop" }?.posture == "laptop", "\(daemon.log)")

        let status = try Self.orientctl(["status", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("sensor: available: iio:device1 (accel_3d)"), "\(status.stdout)")
        #expect(status.stdout.contains("base sensor: iio:device0 (accel_3d) at \(convertible.basePath)\n"), "\(status.stdout)")
        #expect(status.stdout.contains("base mount matrix: 1, 0, 0; 0, -1, 0; 0, 0, -1 from udev ACCEL_MOUNT_MATRIX\n"))
        let json = try Self.orientctl(["status", "--json", "--socket", daemon.socket])
        let reply = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let base = (reply["sensor"] as? [String: Any])?["base"] as? [String: Any]
        #expect(base?["id"] as? String == "iio:device0")
        #expect(base?["path"] as? String == convertible.basePath)
        #expect(base?["mount-matrix-repaired"] as? Bool == false)

        try convertible.removeBase()
        #expect(try daemon.poll { $0.posture == "unknown" }?.posture == "unknown")
        let after = try Self.orientctl(["status", "--socket", daemon.socket])
        #expect(after.stdout.contains("base sensor: none\n"), "\(after.stdout)")
    }
}
