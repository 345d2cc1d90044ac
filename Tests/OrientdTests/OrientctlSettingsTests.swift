import Foundation
import OrientCore
import OrientScenarios
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// orientctl's per-client settings (--mask, --preferred, --no-autorotate) and its --json output, run as a
/// process against the real daemon on a replayed trace.
@Suite("orientctl settings and JSON output")
struct OrientctlSettingsTests {
    private static func orientctl(_ arguments: [String]) throws -> OrientdProcess.Output {
        try OrientdProcess.run(arguments, executable: OrientdProcess.orientctl)
    }

    /// Each line as a JSON object; nil if any line is not one.
    private static func jsonObjects(_ text: String) -> [[String: Any]]? {
        var objects: [[String: Any]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            objects.append(object)
        }
        return objects
    }

    private static func interfaces(_ objects: [[String: Any]]) -> [String] {
        var result: [String] = []
        for case let interface as String in objects.map({ $0["interface"] }) where interface != "unknown" && result.last != interface {
            result.append(interface)
        }
        return result
    }

    @Test("monitor --mask landscape --json: JSON lines only, with only landscape interface orientations")
    func monitorMask() throws {
        let (path, expected) = try DaemonEndToEndTests.trace(seed: 24)
        // The test means something only if the trace would show portrait to a client without the mask.
        try #require(try expected.interfaces(mask: .all).contains("portrait"))
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--replay-wait-for", "1", "--exit-at-end"])
        try daemon.waitUntilListening()
        let monitor = try Self.orientctl(["monitor", "--mask", "landscape", "--json", "--socket", daemon.socket])
        #expect(monitor.status == 69, "monitor ends when the daemon stops at the end of the replay: \(monitor.stderr)")
        let lines = try #require(Self.jsonObjects(monitor.stdout), "every line is a JSON object:\n\(monitor.stdout)")
        #expect(lines.count == 1 + expected.devices.count + 1, "the reply, one event per change, the sensor's start")
        #expect(lines.first?["ok"] == nil && lines.first?["id"] == nil, "the reply without the request's fields")
        #expect(lines.allSatisfy { $0["mask"] as? String == "landscape" })
        #expect(Self.interfaces(lines) == (try expected.interfaces(mask: .landscape)))
        #expect(lines.dropFirst().allSatisfy { $0["event"] as? String == "orientation" })
    }

    @Test("monitor --no-autorotate holds the interface where it first settles, and says locked")
    func monitorNoAutorotate() throws {
        let (path, expected) = try DaemonEndToEndTests.trace(seed: 24)
        try #require(try expected.interfaces(mask: .all).count > 1)
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--replay-wait-for", "1", "--exit-at-end"])
        try daemon.waitUntilListening()
        let monitor = try Self.orientctl(["monitor", "--no-autorotate", "--json", "--socket", daemon.socket])
        let lines = try #require(Self.jsonObjects(monitor.stdout))
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0["locked"] as? Bool == true })
        #expect(Self.interfaces(lines).count == 1, "\(monitor.stdout)")
    }

    @Test("watch --mask landscape runs the hook for landscape orientations only")
    func watchMask() throws {
        let (path, expected) = try DaemonEndToEndTests.trace(seed: 25)
        try #require(try expected.interfaces(mask: .all).contains("portrait"))
        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--exit-at-end"])
        try daemon.waitUntilListening()
        let record = daemon.folder + "/hook.log"
        let output = try Self.orientctl(
            ["watch", "--mask", "landscape", "--exec", "echo $ORIENTD_INTERFACE >> \(record)", "--socket", daemon.socket])
        #expect(output.status == 69)
        let seen = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(seen == (try expected.interfaces(mask: .landscape)))
    }

    @Test("get with settings answers for them: a device lying flat is in the preferred orientation")
    func getFlat() throws {
        let flat = Pose(angle: 0, tilt: 90)
        let path = try TraceFiles.write(Scenario.make("flat", rate: 50, start: flat, pieces: [.hold(flat, seconds: 1)], seed: 1))
        let daemon = try DaemonHarness(["--replay", path, "--sampling", "always"])
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.device == "face-up" }?.device == "face-up")

        func get(_ settings: [String]) throws -> [String: Any]? {
            let output = try Self.orientctl(["get", "--json", "--socket", daemon.socket] + settings)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.split(separator: "\n").count == 1)
            return Self.jsonObjects(output.stdout)?.first
        }
        let preferred = try #require(try get(["--mask", "landscape", "--preferred", "landscape-left"]))
        #expect(preferred["interface"] as? String == "landscape-left")
        #expect(preferred["mask"] as? String == "landscape")
        #expect(preferred["device"] as? String == "face-up")
        #expect(preferred["ok"] == nil && preferred["id"] == nil)
        // Without a preferred orientation, the first allowed one; without settings, the system's answer.
        #expect(try get(["--mask", "landscape"])?["interface"] as? String == "landscape-right")
        #expect(try get([])?["interface"] as? String == "portrait")
        #expect(try get(["--no-autorotate"])?["locked"] as? Bool == true)
        #expect(try get([])?["locked"] as? Bool == false)

        let text = try Self.orientctl(["get", "--preferred", "portrait-upside-down", "--socket", daemon.socket])
        #expect(text.stdout.contains("interface: portrait-upside-down"), "\(text.stdout)")
    }

    @Test("A bad --mask or --preferred is a usage error naming the option, before any connection",
          arguments: ["get", "monitor", "watch"])
    func badSettings(command: String) throws {
        let extra = command == "watch" ? ["--exec", "true"] : []
        let nowhere = ["--socket", "/nonexistent/orientd.sock"]
        let mask = try Self.orientctl([command, "--mask", "nonsense"] + extra + nowhere)
        #expect(mask.status == 64)
        #expect(mask.stderr.contains("--mask") && mask.stderr.contains("nonsense"), "\(mask.stderr)")
        let union = try Self.orientctl([command, "--mask", "portrait|"] + extra + nowhere)
        #expect(union.status == 64 && union.stderr.contains("--mask"))
        let preferred = try Self.orientctl([command, "--preferred", "unknown"] + extra + nowhere)
        #expect(preferred.status == 64)
        #expect(preferred.stderr.contains("--preferred"), "\(preferred.stderr)")
        #expect(mask.stdout.isEmpty && preferred.stdout.isEmpty)
    }

    @Test("get waits for a slow reply and prints fields it does not know as the daemon sent them")
    func slowReplyWithNewFields() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fields = #""device":"face-up","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":1.5,"fresh":false,"extra":{"a":[1,"}"]}"#
        let fake = try FakeDaemon(path: folder + "/fake.sock", delay: 2.5) { id in "{\"ok\":true,\"id\":\(id)," + fields + "}" }
        let started = Date()
        let output = try Self.orientctl(["get", "--json", "--socket", fake.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Date().timeIntervalSince(started) >= 2.5)
        #expect(output.stdout == "{" + fields + "}\n")
        #expect(fake.request?.contains("\"op\":\"get\"") == true)
    }

    @Test("status --json prints the daemon's reply on one line, nested sensor included")
    func statusJSON() throws {
        let (path, _) = try DaemonEndToEndTests.trace()
        let daemon = try DaemonHarness(["--replay", path])
        try daemon.waitUntilListening()
        let status = try Self.orientctl(["status", "--json", "--socket", daemon.socket])
        let lines = try #require(Self.jsonObjects(status.stdout))
        #expect(lines.count == 1)
        #expect(lines.first?["version"] is String && lines.first?["ok"] == nil)
        #expect((lines.first?["sensor"] as? [String: Any])?["state"] is String, "the sensor object, nested as sent")
    }
}
