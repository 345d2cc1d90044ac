import Foundation
import OrientTestSupport
import Testing

/// The release installs one binary, /usr/bin/orientd, with /usr/bin/orientctl a link to it: the name it is
/// called by decides which command it is.
@Suite("One binary for orientd and orientctl")
struct OneBinaryTests {
    /// A link to the built orientd named `name`, in a folder of its own.
    private static func link(named name: String) throws -> String {
        let path = try TraceFiles.folder().appendingPathComponent(name).path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: OrientdProcess.binary)
        return path
    }

    @Test("Called as orientctl, through a link, it is orientctl: its usage, its errors and their exit status")
    func calledAsOrientctl() throws {
        let orientctl = try Self.link(named: "orientctl")
        let help = try OrientdProcess.run(["--help"], executable: orientctl)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: orientctl"), "\(help.stdout)")
        let missing = try OrientdProcess.run(["--socket", "/nonexistent/orientd.sock", "get"], executable: orientctl)
        #expect(missing.status == 69)
        #expect(missing.stderr.hasPrefix("orientctl: orientd is not running"), "\(missing.stderr)")
    }

    @Test("Called by any other name it is orientd")
    func calledOtherwise() throws {
        for name in ["orientd", "orientctl-old", "my-orientctl"] {
            let help = try OrientdProcess.run(["--help"], executable: try Self.link(named: name))
            #expect(help.stdout.contains("USAGE: orientd"), "\(name): \(help.stdout)")
        }
    }

    @Test("A daemon's answer reaches orientctl run from the one binary")
    func answersThroughTheLink() throws {
        let daemon = try DaemonHarness(["--replay", PlotCommandTests.demoTrace])
        try daemon.waitUntilListening()
        let status = try OrientdProcess.run(["status", "--json", "--socket", daemon.socket], executable: try Self.link(named: "orientctl"))
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"version\":"), "\(status.stdout)")
    }
}
