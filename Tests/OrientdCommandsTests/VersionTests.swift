import ArgumentParser
import OrientctlCommands
import Testing

@testable import orientd

/// The two commands say the same things the same way (issue 54, "Names and flags disagree"): their versions.
@Suite("orientd and orientctl agree, in process")
struct VersionTests {
    /// What `COMMAND --version` prints and its exit status, as each binary's main reports the parse.
    private static func version<Command: ParsableCommand>(_ command: Command.Type) -> (status: Int32, stdout: String) {
        do {
            _ = try command.parseAsRoot(["--version"])
            return (0, "")
        } catch {
            return (command.exitCode(for: error).rawValue, command.fullMessage(for: error))
        }
    }

    @Test("--version works on both commands and prints the same version")
    func versionOnBoth() {
        let daemon = Self.version(Orientd.self)
        let client = Self.version(Orientctl.self)
        #expect(daemon.status == 0 && client.status == 0)
        #expect(!daemon.stdout.isEmpty)
        #expect(client.stdout == daemon.stdout)
    }
}
