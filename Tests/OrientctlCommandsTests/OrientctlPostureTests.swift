import Testing

/// orientctl's get, monitor and watch with a convertible's posture, tablet mode and hinge angle, in process against
/// a stand-in daemon that reports them, and against one that reports none (no base sensor, or an older daemon).
@Suite("orientctl: posture, tablet mode and hinge angle, in process")
struct OrientctlPostureTests {
    private static let portrait = #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available""#
    private static let laptop = portrait + #","t":4.5,"posture":"laptop","tablet-mode":false,"hinge-angle":105"#
    private static let folded = #""device":"landscape-right","interface":"landscape-left","locked":false,"mask":"all","sensor":"available","t":9.25,"posture":"tablet","tablet-mode":true,"hinge-angle":352"#
    private static let single = portrait + #","t":1,"posture":"unknown","tablet-mode":null,"hinge-angle":null"#

    @Test("get prints posture, tablet mode and hinge angle when the daemon reports a posture")
    func getConvertible() async throws {
        let daemon = try FakeDaemon(state: Self.laptop)
        let get = await InProcessOrientctl.run(["get", "--socket", daemon.path])
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
        let unread = try FakeDaemon(state: Self.portrait + #","t":2,"posture":"tent","tablet-mode":true,"hinge-angle":null"#)
        let tent = await InProcessOrientctl.run(["get", "--socket", unread.path])
        #expect(tent.stdout.hasSuffix("posture: tent\ntablet-mode: yes\nhinge-angle: unknown\n"))
    }

    @Test("Without a posture (no base sensor, or an older daemon) get and monitor print what they always did")
    func getSingleSensor() async throws {
        let expected = "device: portrait\ninterface: portrait\nlocked: no\nmask: all\nsensor: available\n"
        for state in [Self.single, Self.portrait + #","t":1"#] {
            let forGet = try FakeDaemon(state: state)
            #expect(await InProcessOrientctl.run(["get", "--socket", forGet.path]).stdout == expected)
            let forMonitor = try FakeDaemon(state: state)
            let monitor = await InProcessOrientctl.run(["monitor", "--socket", forMonitor.path])
            #expect(monitor.stdout == "1.0  device portrait  interface portrait\n")
        }
    }

    @Test("monitor shows them on each line; --json prints the fields as the daemon sent them, nulls included")
    func monitor() async throws {
        let events = [Self.folded, Self.single]
        let forText = try FakeDaemon(state: Self.laptop, events: events)
        let text = await InProcessOrientctl.run(["monitor", "--socket", forText.path])
        #expect(text.status == 69, "monitor ends when the daemon goes")
        #expect(text.stdout.split(separator: "\n") == [
            "4.5  device portrait  interface portrait  posture laptop  tablet-mode off  hinge 105°",
            "9.25  device landscape-right  interface landscape-left  posture tablet  tablet-mode on  hinge 352°",
            "1.0  device portrait  interface portrait",
        ])
        let forJSON = try FakeDaemon(state: Self.laptop, events: events)
        let json = await InProcessOrientctl.run(["monitor", "--json", "--socket", forJSON.path])
        let lines = json.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "{" + Self.laptop + "}")
        #expect(lines.last?.hasSuffix(#""posture":"unknown","tablet-mode":null,"hinge-angle":null}"#) == true)
    }

    @Test("watch gives its hook ORIENTD_POSTURE, ORIENTD_TABLET_MODE (1, 0, empty) and ORIENTD_HINGE_ANGLE (empty when unknown)")
    func watchEnvironment() async throws {
        let unread = #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":12,"posture":"stand","tablet-mode":true,"hinge-angle":null"#
        let daemon = try FakeDaemon(state: Self.laptop, events: [Self.folded, unread])
        let watch = await InProcessOrientctl.run(["watch", "--exec", "true", "--socket", daemon.path])
        #expect(watch.status == 69, "\(watch.stderr)")
        #expect(watch.hookRuns.map { [$0["ORIENTD_INTERFACE"], $0["ORIENTD_POSTURE"], $0["ORIENTD_TABLET_MODE"], $0["ORIENTD_HINGE_ANGLE"]] } == [
            ["portrait", "laptop", "0", "105"],
            ["landscape-left", "tablet", "1", "352"],
            ["portrait", "stand", "1", ""],
        ])
        // Without a base sensor: unknown, and the others set and empty.
        let single = try FakeDaemon(state: Self.single)
        let run = await InProcessOrientctl.run(["watch", "--exec", "true", "--socket", single.path]).hookRuns.first
        #expect(run?["ORIENTD_POSTURE"] == "unknown" && run?["ORIENTD_TABLET_MODE"] == "" && run?["ORIENTD_HINGE_ANGLE"] == "")
    }
}
