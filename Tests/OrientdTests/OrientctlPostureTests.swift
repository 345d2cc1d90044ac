import Foundation
import Testing

/// orientctl's get, monitor and watch with a convertible's posture, tablet mode and hinge angle: against a
/// stand-in daemon that reports them, and against the real daemon without a base sensor, which reports none.
@Suite("orientctl: posture, tablet mode and hinge angle")
struct OrientctlPostureTests {
    private static let portrait = #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available""#
    private static let laptop = portrait + #","t":4.5,"posture":"laptop","tablet-mode":false,"hinge-angle":105"#
    private static let folded = #""device":"landscape-right","interface":"landscape-left","locked":false,"mask":"all","sensor":"available","t":9.25,"posture":"tablet","tablet-mode":true,"hinge-angle":352"#
    private static let single = portrait + #","t":1,"posture":"unknown","tablet-mode":null,"hinge-angle":null"#

    private static func orientctl(_ arguments: [String]) throws -> OrientdProcess.Output {
        try OrientdProcess.run(arguments, executable: OrientdProcess.orientctl)
    }

    /// A stand-in daemon for one connection: it answers with `state`, sends `events`, and hangs up.
    private static func daemon(_ state: String, events: [String] = []) throws -> FakeDaemon {
        try FakeDaemon(path: "/tmp/orientd-fake-\(UUID().uuidString.prefix(8)).sock", hangUp: true) { id in
            "{\"ok\":true,\"id\":\(id),\(state)}" + events.map { "\n{\"event\":\"orientation\",\($0)}" }.joined()
        }
    }

    @Test("get prints posture, tablet mode and hinge angle when the daemon reports a posture")
    func getConvertible() throws {
        let daemon = try Self.daemon(Self.laptop)
        let get = try Self.orientctl(["get", "--socket", daemon.path])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == """
            device: portrait
            interface: portrait
            locked: no
            mask: all
            sensor: available
            posture: laptop
            tablet-mode: no
            hinge-angle: 105°

            """)
        let unread = try Self.daemon(Self.portrait + #","t":2,"posture":"tent","tablet-mode":true,"hinge-angle":null"#)
        let tent = try Self.orientctl(["get", "--socket", unread.path])
        #expect(tent.stdout.hasSuffix("posture: tent\ntablet-mode: yes\nhinge-angle: unknown\n"))
    }

    @Test("Without a posture (no base sensor, or an older daemon) get and monitor print what they always did")
    func getSingleSensor() throws {
        let expected = "device: portrait\ninterface: portrait\nlocked: no\nmask: all\nsensor: available\n"
        for state in [Self.single, Self.portrait + #","t":1"#] {
            let forGet = try Self.daemon(state)
            #expect(try Self.orientctl(["get", "--socket", forGet.path]).stdout == expected)
            let forMonitor = try Self.daemon(state)
            let monitor = try Self.orientctl(["monitor", "--socket", forMonitor.path])
            #expect(monitor.stdout == "1.0  device portrait  interface portrait\n")
        }
    }

    @Test("monitor shows them on each line; --json prints the fields as the daemon sent them, nulls included")
    func monitor() throws {
        let events = [Self.folded, Self.single]
        let forText = try Self.daemon(Self.laptop, events: events)
        let text = try Self.orientctl(["monitor", "--socket", forText.path])
        #expect(text.status == 69, "monitor ends when the daemon goes")
        #expect(text.stdout.split(separator: "\n") == [
            "4.5  device portrait  interface portrait  posture laptop  tablet-mode off  hinge 105°",
            "9.25  device landscape-right  interface landscape-left  posture tablet  tablet-mode on  hinge 352°",
            "1.0  device portrait  interface portrait",
        ])
        let forJSON = try Self.daemon(Self.laptop, events: events)
        let json = try Self.orientctl(["monitor", "--json", "--socket", forJSON.path])
        let lines = json.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "{" + Self.laptop + "}")
        #expect(lines.last?.hasSuffix(#""posture":"unknown","tablet-mode":null,"hinge-angle":null}"#) == true)
    }

    @Test("watch --exec: ORIENTD_POSTURE, ORIENTD_TABLET_MODE (1, 0, empty) and ORIENTD_HINGE_ANGLE (empty when unknown)")
    func watchEnvironment() throws {
        let unread = #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":12,"posture":"stand","tablet-mode":true,"hinge-angle":null"#
        let daemon = try Self.daemon(Self.laptop, events: [Self.folded, unread])
        let record = "/tmp/orientd-watch-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: record) }
        let hook = "echo \"$ORIENTD_INTERFACE|$ORIENTD_POSTURE|$ORIENTD_TABLET_MODE|$ORIENTD_HINGE_ANGLE\" >> \(record)"
        let watch = try Self.orientctl(["watch", "--exec", hook, "--socket", daemon.path])
        #expect(watch.status == 69, "\(watch.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == """
            portrait|laptop|0|105
            landscape-left|tablet|1|352
            portrait|stand|1|

            """)
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
