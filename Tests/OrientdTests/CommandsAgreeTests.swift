import Foundation
import Testing

/// The two commands, their help and their manuals say the same things the same way (issue 54, "Names and flags
/// disagree"): what one offers, the other does not lack.
@Suite("orientd and orientctl agree")
struct CommandsAgreeTests {
    @Test("--version works on both commands and prints the same version")
    func versionOnBoth() throws {
        let daemon = try OrientdProcess.run(["--version"])
        let client = try OrientdProcess.run(["--version"], executable: OrientdProcess.orientctl)
        #expect(daemon.status == 0, "\(daemon.stderr)")
        #expect(client.status == 0, "\(client.stderr)")
        #expect(!daemon.stdout.isEmpty)
        #expect(client.stdout == daemon.stdout)
    }

    @Test("watch --help names every ORIENTD_ variable the hook is given")
    func watchHelpNamesEveryVariable() throws {
        let (path, _) = try DaemonEndToEndTests.trace(seed: 25)
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--exit-at-end"])
        try daemon.waitUntilListening()
        let record = daemon.folder + "/hook.env"
        _ = try OrientdProcess.run(
            ["watch", "--exec", "env >> \(record)", "--socket", daemon.socket], executable: OrientdProcess.orientctl)
        let given = Set(
            try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
                .compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) }
                .filter { $0.hasPrefix("ORIENTD_") && ProcessInfo.processInfo.environment[$0] == nil })
        #expect(given.contains("ORIENTD_ROTATION"), "\(given)")
        let help = try OrientdProcess.run(["watch", "--help"], executable: OrientdProcess.orientctl).stdout
        // The help wraps its lines; a name is never split.
        for name in given.sorted() {
            #expect(help.contains(name), "watch --help does not name \(name)")
        }
    }
}
