import Foundation
import OrientCore
import OrientProtocol
import OrientScenarios
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real daemon on a replayed trace, over a real socket, driven by raw clients and the real orientctl.
@Suite("orientd run, end to end", .serialized)
struct DaemonEndToEndTests {
    /// A short recording (about 20 s at 50 Hz) with its expected changes.
    static func trace(seed: UInt64 = 21) throws -> (path: String, expected: ExpectedChanges) {
        let path = try TraceFiles.write(ScenarioLibrary.session(rate: 50, seed: seed))
        return (path, try ExpectedChanges(trace: path))
    }

    @Test("A subscriber that never reads does not hold back the others")
    func stalledSubscriber() throws {
        let (path, expected) = try Self.trace(seed: 22)
        let daemon = try DaemonHarness(["--replay", path, "--speed", "20", "--replay-wait-for", "2"])
        try daemon.waitUntilListening()
        let stalled = try LineClient(path: daemon.socket)
        stalled.send("{\"op\":\"subscribe\"}\n")
        let active = try LineClient(path: daemon.socket)
        #expect(active.request(#""op":"subscribe""#)?.ok == true)
        let finalTime = try #require(expected.devices.last?.time)
        let events = collectEvents(active, until: finalTime)
        #expect(events.last?.t == finalTime)
        #expect(dedupInterfaces(events) == (try expected.interfaces(mask: .all)))
        // When it finally reads, the stalled client's last event is the newest state.
        var last: ServerMessage?
        while let message = stalled.readMessage(timeout: 1) { last = message }
        #expect(last?.t == finalTime)
    }

    @Test("lock, unlock and set-mask: root may; another user may not unless in the control group")
    func permissions() throws {
        try #require(getuid() == 0, "needs root to run a client as another user")
        let (path, _) = try Self.trace()
        let daemon = try DaemonHarness(["--replay", path, "--control-group", "4242"])
        try daemon.waitUntilListening()
        let root = try LineClient(path: daemon.socket)
        #expect(root.request(#""op":"lock""#)?.locked == true)
        #expect(root.request(#""op":"set-mask","mask":"landscape""#)?.mask == "landscape")
        #expect(root.request(#""op":"set-mask","mask":"default""#)?.mask == "all")
        #expect(root.request(#""op":"unlock""#)?.locked == false)

        func asUser(gid: Int, _ arguments: [String]) throws -> OrientdProcess.Output {
            try OrientdProcess.run(
                ["--reuid=65534", "--regid=\(gid)", "--clear-groups", OrientdProcess.orientctl, "--socket", daemon.socket]
                    + arguments, executable: "/usr/bin/setpriv")
        }
        let denied = try asUser(gid: 65534, ["lock"])
        #expect(denied.status == 77, "\(denied.stderr)")
        #expect(denied.stderr.contains("permission-denied"))
        #expect(try asUser(gid: 65534, ["get"]).status == 0, "anyone may read")
        #expect(try asUser(gid: 4242, ["lock"]).status == 0, "the control group may")
        #expect(root.request(#""op":"get""#)?.locked == true)
    }

    @Test("SIGHUP reloads a good configuration and keeps the running one when the file is bad")
    func reload() throws {
        let (path, _) = try Self.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "mask = all\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(["--replay", path, "--config", config], folder: folder)
        try daemon.waitUntilListening()
        let client = try LineClient(path: daemon.socket)
        #expect(client.request(#""op":"get""#)?.mask == "all")

        try "mask = landscape\npreferred = landscape-left\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(waitFor { client.request(#""op":"get""#)?.mask == "landscape" })

        try "mask = landscape\nbogus-key = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(waitFor { daemon.log.contains("configuration not reloaded") })
        #expect(daemon.log.contains("orientd.conf:2: bogus-key: unknown key"))
        #expect(client.request(#""op":"get""#)?.mask == "landscape", "the running configuration is kept")
    }

    @Test("A clean stop removes the socket; a restart restores the lock; a corrupt state file is not fatal")
    func restart() throws {
        let (path, _) = try Self.trace()
        let daemon = try DaemonHarness(["--replay", path])
        try daemon.waitUntilListening()
        let client = try LineClient(path: daemon.socket)
        #expect(client.request(#""op":"lock""#)?.locked == true)
        #expect(client.request(#""op":"set-mask","mask":"all-but-upside-down""#)?.ok == true)
        daemon.expectCleanStop()
        #expect(client.readLine(timeout: 5) == nil, "connected clients see end of file")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))

        try daemon.restart(["--replay", path])
        try daemon.waitUntilListening()
        let again = try LineClient(path: daemon.socket)
        let state = again.request(#""op":"get""#)
        #expect(state?.locked == true)
        #expect(state?.mask == "all-but-upside-down")
        daemon.expectCleanStop()

        try "{\"version\":1,\"locked\":tru".write(toFile: daemon.stateDirectory + "/state.json", atomically: true, encoding: .utf8)
        try daemon.restart(["--replay", path])
        try daemon.waitUntilListening()
        #expect(try LineClient(path: daemon.socket).request(#""op":"get""#)?.locked == false)
        #expect(daemon.log.contains("not a valid state file"))
    }

    @Test("A kill -9 leaves a stale socket file; the next start replaces it")
    func staleSocket() throws {
        let (path, _) = try Self.trace()
        let daemon = try DaemonHarness(["--replay", path])
        try daemon.waitUntilListening()
        daemon.signal(SIGKILL)
        #expect(FileManager.default.fileExists(atPath: daemon.socket))
        try daemon.restart(["--replay", path])
        try daemon.waitUntilListening()
        #expect(try LineClient(path: daemon.socket).request(#""op":"get""#)?.ok == true)
        // A second daemon on a live socket refuses to start instead of stealing it.
        let intruder = try DaemonHarness(["--replay", path], folder: daemon.folder, socket: daemon.socket)
        intruder.process.waitUntilExit()
        #expect(intruder.process.terminationStatus != 0)
        #expect(intruder.log.contains("is in use"))
    }

    @Test("Socket activation: the daemon serves an inherited listening socket and leaves its file alone",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")))
    func socketActivation() throws {
        let (path, _) = try Self.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/activated.sock"
        let daemon = try DaemonHarness(
            ["--replay", path], folder: folder, socket: socket,
            launcher: ["/usr/bin/systemd-socket-activate", "-l", socket])
        try daemon.waitUntilListening()
        let client = try LineClient(path: socket)
        #expect(client.request(#""op":"get""#)?.ok == true)
        #expect(waitFor { daemon.log.contains("inherited socket") })
        daemon.signal(SIGTERM)
        #expect(FileManager.default.fileExists(atPath: socket), "systemd owns the socket file")
    }

    /// orientctl's commands in process against a stand-in daemon: Tests/OrientctlCommandsTests. Here, one run of each
    /// family against the real daemon, and no daemon at all.
    @Test("orientctl: get, status, monitor --mask to the end of the replay, and a daemon that is not running")
    func orientctl() throws {
        let (path, expected) = try Self.trace(seed: 24)
        // The test means something only if the trace would show portrait to a client without the mask.
        try #require(try expected.interfaces(mask: .all).contains("portrait"))
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--replay-wait-for", "1", "--exit-at-end"])
        try daemon.waitUntilListening()
        func orientctl(_ arguments: [String]) throws -> OrientdProcess.Output {
            try OrientdProcess.run(arguments, executable: OrientdProcess.orientctl)
        }
        let get = try orientctl(["--socket", daemon.socket, "get", "--json"])
        #expect(get.status == 0)
        #expect(get.stdout.contains("\"device\":"))
        let status = try orientctl(["status", "--socket", daemon.socket])
        #expect(status.status == 0 && status.stdout.hasPrefix("orientd "))
        let gone = try orientctl(["get", "--socket", daemon.folder + "/nothing.sock"])
        #expect(gone.status == 69 && gone.stderr.contains("not running"))

        let monitor = try orientctl(["monitor", "--mask", "landscape", "--json", "--socket", daemon.socket])
        #expect(monitor.status == 69, "monitor ends when the daemon stops at the end of the replay: \(monitor.stderr)")
        var lines: [[String: Any]] = []
        for line in monitor.stdout.split(separator: "\n") {
            lines.append(try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)"))
        }
        #expect(lines.count == 1 + expected.devices.count + 1, "the reply, one event per change, the sensor's start")
        #expect(lines.first?["ok"] == nil && lines.first?["id"] == nil, "the reply without the request's fields")
        #expect(lines.allSatisfy { $0["mask"] as? String == "landscape" })
        var interfaces: [String] = []
        for case let interface as String in lines.map({ $0["interface"] }) where interface != "unknown" && interfaces.last != interface {
            interfaces.append(interface)
        }
        #expect(interfaces == (try expected.interfaces(mask: .landscape)))
        #expect(lines.dropFirst().allSatisfy { $0["event"] as? String == "orientation" })
    }
}

/// Polls `condition` every `interval` seconds for up to `timeout` seconds.
func waitFor(timeout: Double = 10, interval: Double = 0.05, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(UInt32(interval * 1_000_000))
    }
    return condition()
}
