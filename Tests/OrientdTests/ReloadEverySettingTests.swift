import Foundation
import OrientServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP against a running daemon, with every setting of the table changed at once.
@Suite("Reloading every setting")
struct ReloadEverySettingTests {
    @Test("SIGHUP applies every setting a reload can, and names in one log line each one that waits for the next start")
    func everySetting() throws {
        let (path, _) = try DaemonEndToEndTests.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(["--replay", path, "--config", config], folder: folder)
        try daemon.waitUntilListening()

        // The harness gives --socket, --state-dir and --natural-orientation on the command line, which win over the file.
        let fromCommandLine: Set = ["socket", "state-directory", "natural-orientation"]
        let changed = DaemonSetting.all.filter { !fromCommandLine.contains($0.key) }
        var text = ""
        for section in [nil, DaemonSetting.classifierSection] {
            if let section { text += "[\(section)]\n" }
            for setting in changed where setting.section == section { text += "\(setting.key) = \(setting.example)\n" }
        }
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(waitFor { daemon.log.contains("configuration reloaded") }, "\(daemon.log)")

        let line = daemon.log.split(separator: "\n").first { $0.contains("configuration reloaded") }.map(String.init) ?? ""
        let parts = line.components(separatedBy: "waiting for the next start: ")
        #expect(parts.count == 2, "\(line)")
        let waiting = Set((parts.last ?? "").components(separatedBy: ", "))
        for setting in changed {
            switch setting.reload {
            case .nextStart: #expect(waiting.contains(setting.name), "\(setting.name) not named: \(line)")
            case .applied: #expect(parts.first?.contains(setting.name) == true, "\(setting.name) not applied: \(line)")
            }
        }
        #expect(waiting.isSuperset(of: ["dbus", "still-rate", "socket-mode"]))
        // Applied for real: the state shows the new system mask at once.
        let client = try LineClient(path: daemon.socket)
        #expect(client.request(#""op":"get""#)?.mask == "landscape")
        #expect(daemon.signal(SIGTERM) == 0)
    }

    @Test("max-clients lowered by one reload and raised back by the next admits as many clients as before")
    func maxClientsBack() throws {
        let (path, _) = try DaemonEndToEndTests.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "max-clients = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(["--replay", path, "--config", config], folder: folder)
        try daemon.waitUntilListening()
        for (round, limit) in [1, 2].enumerated() {
            try "max-clients = \(limit)\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            #expect(waitFor { daemon.log.components(separatedBy: "configuration reloaded").count == round + 2 })
        }
        // Two clients are served again (the start-up probe may still count for a moment, as in clientLimit).
        let first = try LineClient(path: daemon.socket)
        #expect(first.request(#""op":"get""#)?.ok == true)
        #expect(waitFor { (try? LineClient(path: daemon.socket))?.request(#""op":"get""#)?.ok == true },
                "a second client is never served: \(daemon.log)")
    }
}
