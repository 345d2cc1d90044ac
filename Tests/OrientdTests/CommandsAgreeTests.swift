import Foundation
import Testing

/// The two commands, their help and their manuals say the same things the same way (issue 54, "Names and flags
/// disagree"): what one offers, the other does not lack. Their versions, watch's help and doctor's JSON keys are
/// compared in process (VersionTests, WatchHelpTests, DoctorJSONTests); here, what needs the binaries or the daemon.
@Suite("orientd and orientctl agree")
struct CommandsAgreeTests {
    @Test(
        "Log lines are plain on a terminal or in a file, and carry the journal's priority only on the journal's stream",
        arguments: [("none", false), ("matching", true), ("another stream's", false)])
    func logLinePriorities(journalStream: String, prefixed: Bool) throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/stderr"
        let config = folder + "/bad.conf"
        try "rate = fast\n".write(toFile: config, atomically: true, encoding: .utf8)
        // systemd sets JOURNAL_STREAM to the device and inode of the stream it gives the service (systemd.exec(5)).
        let stream: String
        switch journalStream {
        case "none": stream = "unset JOURNAL_STREAM"
        case "matching": stream = "JOURNAL_STREAM=$(stat -c %d:%i \(log)); export JOURNAL_STREAM"
        default: stream = "JOURNAL_STREAM=$(stat -c %d:%i \(config)); export JOURNAL_STREAM"
        }
        let script = "exec 2>\(log); \(stream); exec \"$0\" run --config \(config)"
        let run = try OrientdProcess.run(["-c", script, OrientdProcess.binary], executable: "/bin/sh")
        #expect(run.status == 78)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let expected = "\(config):1: rate: \"fast\" is not a number\n"
        #expect(text == (prefixed ? "<3>" : "error: ") + expected, "\(journalStream): \(text)")
    }
}

extension CommandsAgreeTests {
    @Test("monitor prints the first state once: the line that only brings the sensor says so")
    func monitorFirstStateOnce() throws {
        let daemon = try DaemonHarness(["--replay", PlotCommandTests.demoTrace])
        try daemon.waitUntilListening()
        let lines = try OrientdProcess.runUntil(
            ["monitor", "--socket", daemon.socket], executable: OrientdProcess.orientctl, lines: 3, timeout: 15)
        try #require(lines.count == 3, "\(lines)\n\(daemon.log)")
        // On demand, the sensor opens with the subscription: none at the reply, available at the next line.
        #expect(lines[0].hasSuffix("sensor none"), "\(lines)")
        #expect(lines[1].hasSuffix("sensor available"), "\(lines)")
        #expect(!lines[2].contains("sensor"), "\(lines)")
        for (line, next) in zip(lines, lines.dropFirst()) { #expect(line != next, "\(lines)") }
        daemon.expectCleanStop()
    }
}

extension CommandsAgreeTests {
    @Test("A replayed trace with a bad line fails at start naming the line, with classify's status, client or none")
    func badReplayedTrace() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trace = folder + "/bad.trace"
        try "t,x,y,z\n0,0,-9.8,0\n0.02,0,-9.8,0\n0.04,0,-9.8\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let classified = try OrientdProcess.run(["classify", trace])
        let run = try OrientdProcess.run(
            ["run", "--config", "/dev/null", "--replay", trace, "--exit-at-end", "--socket", folder + "/orientd.sock",
             "--state-directory", folder + "/state"])
        #expect(run.status == 65)
        #expect(run.status == classified.status)
        #expect(run.stderr.contains("\(trace):4: expected 4 columns"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/orientd.sock"), "it never served")

        let missing = try OrientdProcess.run(["run", "--config", "/dev/null", "--replay", folder + "/none.trace"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("\(folder)/none.trace: cannot open"), "\(missing.stderr)")
    }
}
