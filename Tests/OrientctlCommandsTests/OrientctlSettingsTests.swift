import OrientCore
import OrientProtocol
import Testing

/// orientctl's per-client settings (--mask, --preferred, --no-autorotate), in process against a stand-in daemon:
/// what each command asks the daemon for, and what it prints of the answer. What the daemon makes of the settings
/// is tested in Tests/OrientServerTests (PublisherTests, OneShotGetTests).
@Suite("orientctl settings, in process")
struct OrientctlSettingsTests {
    /// The request the stand-in received, decoded as the daemon decodes it.
    static func request(_ daemon: FakeDaemon) throws -> Request.Operation {
        try RequestDecoder.decode(Array(try #require(daemon.request, "no request").utf8)).operation
    }

    private static let landscape = #""device":"landscape-left","interface":"landscape-right","locked":false,"mask":"landscape","sensor":"available","t":1.5"#

    @Test("monitor --mask landscape --json subscribes with the mask and prints the reply without ok and id, then each event as sent")
    func monitorMask() async throws {
        let turned = #""device":"portrait","interface":"landscape-right","locked":false,"mask":"landscape","sensor":"available","t":3"#
        let daemon = try FakeDaemon(state: Self.landscape, events: [turned])
        let monitor = await InProcessOrientctl.run(["monitor", "--mask", "landscape", "--json", "--socket", daemon.path])
        #expect(try Self.request(daemon) == .subscribe(SubscriptionSettings(mask: .landscape)))
        #expect(monitor.stdout == "{\(Self.landscape)}\n{\"event\":\"orientation\",\(turned)}\n")
        #expect(monitor.status == 69, "monitor ends when the daemon goes")
        #expect(monitor.stderr == "orientctl: orientd is not running (cannot connect to \(daemon.path): the daemon stopped)\n")
    }

    @Test("monitor --no-autorotate asks the daemon to hold this client's interface, and says locked; --interface-only asks for its changes only")
    func monitorNoAutorotate() async throws {
        let held = #""device":"landscape-left","interface":"portrait","locked":true,"mask":"all","sensor":"available","t":2"#
        let daemon = try FakeDaemon(state: held, events: [held.replacingOccurrences(of: "\"t\":2", with: "\"t\":4.25")])
        let monitor = await InProcessOrientctl.run(["monitor", "--no-autorotate", "--socket", daemon.path])
        #expect(try Self.request(daemon) == .subscribe(SubscriptionSettings(autorotate: false)))
        #expect(monitor.stdout == """
            2.0  device landscape-left  interface portrait  locked
            4.25  device landscape-left  interface portrait  locked

            """)

        let interfaceOnly = try FakeDaemon(state: held)
        _ = await InProcessOrientctl.run(["monitor", "--interface-only", "--socket", interfaceOnly.path])
        #expect(try Self.request(interfaceOnly) == .subscribe(SubscriptionSettings(changes: .interface)))
    }

    @Test("watch --mask landscape subscribes for interface changes under the mask and runs the hook at start and at each change")
    func watchMask() async throws {
        let sameInterface = Self.landscape.replacingOccurrences(of: "landscape-left", with: "face-up")
        let turned = #""device":"landscape-right","interface":"landscape-left","locked":false,"mask":"landscape","rotation":90,"sensor":"available","t":5"#
        let daemon = try FakeDaemon(state: Self.landscape, events: [sameInterface, turned])
        let watch = await InProcessOrientctl.run(["watch", "--mask", "landscape", "--exec", "true", "--socket", daemon.path])
        #expect(try Self.request(daemon) == .subscribe(SubscriptionSettings(mask: .landscape, changes: .interface)))
        #expect(watch.status == 69, "watch ends when the daemon goes")
        #expect(watch.hookRuns.map { $0["ORIENTD_PREVIOUS_INTERFACE"]! + ">" + $0["ORIENTD_INTERFACE"]! }
            == ["unknown>landscape-right", "landscape-right>landscape-left"])
        // The device and the rotation as the state that ran the hook has them; no rotation, an empty one.
        #expect(
            watch.hookRuns.map { $0["ORIENTD_DEVICE"]! + "/" + $0["ORIENTD_ROTATION"]! } == ["landscape-left/", "landscape-right/90"])

        // An orientation not known yet at start runs nothing until it is.
        let unknown = try FakeDaemon(
            state: #""device":"unknown","interface":"unknown","locked":false,"mask":"all","sensor":"none","t":0"#, events: [turned])
        let waited = await InProcessOrientctl.run(["watch", "--exec", "true", "--socket", unknown.path])
        #expect(waited.hookRuns.map { $0["ORIENTD_PREVIOUS_INTERFACE"]! + ">" + $0["ORIENTD_INTERFACE"]! } == ["unknown>landscape-left"])
    }

    @Test("get carries its settings, or none for the system's view, and prints the answer for them")
    func getSettings() async throws {
        let answer = #""device":"face-up","interface":"landscape-left","locked":false,"mask":"landscape","sensor":"available","t":1"#
        let cases: [([String], SubscriptionSettings?)] = [
            (["--mask", "landscape", "--preferred", "landscape-left"], SubscriptionSettings(mask: .landscape, preferred: .landscapeLeft)),
            (["--mask", "landscape"], SubscriptionSettings(mask: .landscape)),
            (["--no-autorotate"], SubscriptionSettings(autorotate: false)),
            ([], nil),
        ]
        for (settings, expected) in cases {
            let daemon = try FakeDaemon(state: answer)
            let get = await InProcessOrientctl.run(["get", "--json", "--socket", daemon.path] + settings)
            #expect(get.status == 0, "\(get.stderr)")
            #expect(try Self.request(daemon) == .get(expected), "\(settings)")
            #expect(get.stdout == "{\(answer)}\n", "one line, without ok and id")
        }
        let daemon = try FakeDaemon(state: answer.replacingOccurrences(of: "landscape-left", with: "portrait-upside-down"))
        let text = await InProcessOrientctl.run(["get", "--preferred", "portrait-upside-down", "--socket", daemon.path])
        #expect(try Self.request(daemon) == .get(SubscriptionSettings(preferred: .portraitUpsideDown)))
        #expect(text.stdout.contains("\ninterface: portrait-upside-down\n"), "\(text.stdout)")
    }

    @Test("A bad --mask or --preferred is a usage error naming the option, before any connection",
          arguments: ["get", "monitor", "watch"])
    func badSettings(command: String) async throws {
        let extra = command == "watch" ? ["--exec", "true"] : []
        // Nothing listens there: a command that connected would say the daemon is not running (69).
        let nowhere = ["--socket", "/nonexistent/orientd.sock"]
        let mask = await InProcessOrientctl.run([command, "--mask", "nonsense"] + extra + nowhere)
        #expect(mask.status == 64)
        #expect(mask.stderr.contains("--mask") && mask.stderr.contains("nonsense"), "\(mask.stderr)")
        let union = await InProcessOrientctl.run([command, "--mask", "portrait|"] + extra + nowhere)
        #expect(union.status == 64 && union.stderr.contains("--mask"))
        let preferred = await InProcessOrientctl.run([command, "--preferred", "unknown"] + extra + nowhere)
        #expect(preferred.status == 64)
        #expect(preferred.stderr.contains("--preferred"), "\(preferred.stderr)")
        #expect(mask.stdout.isEmpty && preferred.stdout.isEmpty)
    }
}
