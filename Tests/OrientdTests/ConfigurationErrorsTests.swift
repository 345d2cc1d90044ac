import Foundation
import Testing

/// What a person who gets a setting wrong is told, by `check-config`, at start and at a reload (issue 54, "Errors
/// and waits"): the file, the line and the key. check-config's messages and run's, at start and at a reload (one
/// reading), are tested in process (CheckConfigTests); here, the daemon's exit status at start.
@Suite("Configuration errors, as the commands report them")
struct ConfigurationErrorsTests {
    private static func file(_ text: String) throws -> String {
        let path = try DaemonHarness.makeFolder() + "/orientd.conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A replay that ends at once: a daemon that wrongly starts exits by itself rather than running on.
    private static let shortReplay = [
        "--replay", PlotCommandTests.demoTrace, "--speed", "max", "--sampling", "always", "--exit-at-end",
        "--socket", "/tmp/orientd-config-errors-\(getpid()).sock", "--state-directory", "/tmp/orientd-config-errors-\(getpid())",
    ]

    @Test("A control group that does not exist stops the daemon at start with 78, naming the line")
    func missingControlGroup() throws {
        let path = try Self.file("mask = all\ncontrol-group = nosuchgroup-54\n")
        let started = try OrientdProcess.run(["run", "--config", path] + Self.shortReplay)
        #expect(started.status == 78)
        #expect(started.stderr.contains("\(path):2: control-group: no group \"nosuchgroup-54\""), "\(started.stderr)")
    }
}

extension ConfigurationErrorsTests {
    @Test("A lock that cannot be saved is refused naming the state folder, and said in the daemon's log")
    func unsavableState() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A file where the state folder's parent should be: no one, root included, can make the folder.
        try "".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
        let stateDirectory = folder + "/file/state"
        let daemon = try DaemonHarness(
            ["--replay", PlotCommandTests.demoTrace, "--state-directory", stateDirectory])
        try daemon.waitUntilListening()
        let lock = try OrientdProcess.run(["lock", "--socket", daemon.socket], executable: OrientdProcess.orientctl)
        #expect(lock.status == 70)
        #expect(lock.stderr.contains("cannot save the state: \(stateDirectory): cannot create the folder: "), "\(lock.stderr)")
        #expect(daemon.log.contains("cannot save the state, so the request is refused: \(stateDirectory):"), "\(daemon.log)")
        #expect(try daemon.poll { _ in true }?.locked == false)
        daemon.expectCleanStop()
    }
}
