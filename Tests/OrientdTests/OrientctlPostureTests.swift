import Foundation
import Testing

/// orientctl's get and watch against the real daemon without a base sensor, which reports no posture. What they
/// print of a posture, and what watch gives its hook, is tested in process (Tests/OrientctlCommandsTests).
@Suite("orientctl: posture, tablet mode and hinge angle")
struct OrientctlPostureTests {
    private static func orientctl(_ arguments: [String]) throws -> OrientdProcess.Output {
        try OrientdProcess.run(arguments, executable: OrientdProcess.orientctl)
    }

    @Test("The real daemon without a base sensor: posture unknown, nulls in --json, empty variables for watch")
    func realDaemonSingleSensor() throws {
        let (path, _) = try DaemonEndToEndTests.trace(seed: 26)
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--exit-at-end"])
        try daemon.waitUntilListening()
        let json = try Self.orientctl(["get", "--json", "--socket", daemon.socket])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#","posture":"unknown","tablet-mode":null,"hinge-angle":null"#), "\(json.stdout)")
        let text = try Self.orientctl(["get", "--socket", daemon.socket])
        #expect(text.stdout.hasPrefix("device: ") && !text.stdout.contains("posture"))

        let record = daemon.folder + "/hook.log"
        let hook = "echo \"$ORIENTD_POSTURE|${ORIENTD_TABLET_MODE-unset}|${ORIENTD_HINGE_ANGLE-unset}\" >> \(record)"
        let watch = try Self.orientctl(["watch", "--exec", hook, "--socket", daemon.socket])
        #expect(watch.status == 69, "watch ends when the replay does")
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0 == "unknown||" }, "set and empty, not unset: \(lines)")
    }
}
