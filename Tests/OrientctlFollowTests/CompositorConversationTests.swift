import OrientCore
import OrientProtocol
import OrientTestSupport
import Testing

/// `orientctl follow` in process against stand-ins for Hyprland and niri (which answer as their documented
/// protocols do) and for orientd (which hands it the states the test chooses). Follow prints each request once the
/// compositor answered it, so a line read means the stand-in has it.
@Suite("orientctl follow on Hyprland and niri stand-ins, in process", .timeLimit(.minutes(1)))
struct CompositorConversationTests {
    /// The interface orientations turned through, from portrait, and Hyprland's transform for each
    /// (counter-clockwise wl_output numbers: landscape-left, rotation 90, is 1).
    static let turns: [(InterfaceOrientation, String)] = [
        (.landscapeLeft, "1"), (.portraitUpsideDown, "2"), (.landscapeRight, "3"), (.portrait, "0"),
    ]

    /// The lines for one new rotation on Hyprland: the monitor, then touch and pen (an eval each, or two keywords).
    static func requestsPerTurn(_ configuration: HyprlandStandIn.Configuration) -> Int {
        configuration == .lua ? 3 : 5
    }

    @Test(
        "Hyprland: keyword or eval as its status reports; the panel, touch and pen turned through four orientations",
        arguments: HyprlandStandIn.Configuration.allCases)
    func hyprland(_ configuration: HyprlandStandIn.Configuration) async throws {
        let folder = try FollowFolder()
        let hyprland = try HyprlandStandIn(
            runtime: folder.runtime, signature: "first", monitors: ["HDMI-A-1", "eDP-1"], configuration: configuration)
        let orientd = try OrientdStandIn(.showing(.portrait))
        let follow = try InProcessFollow(
            [], socket: orientd.path,
            environment: ["XDG_RUNTIME_DIR": folder.runtime, "HYPRLAND_INSTANCE_SIGNATURE": "first"])
        #expect(
            await follow.nextLine()
                == "# hyprland at \(folder.runtime)/hypr/first/.socket.sock, output eDP-1, \(configuration.summary)")
        let request = { HyprlandStandIn.monitorRequest(configuration, transform: $0) }
        let perTurn = Self.requestsPerTurn(configuration)
        #expect(await follow.next(perTurn).first == request("0"), "\(follow.transcript)")
        for (interface, transform) in Self.turns {
            orientd.send(.showing(interface))
            #expect(await follow.next(perTurn).first == request(transform), "\(interface): \(follow.transcript)")
            #expect(hyprland.requests.transform(of: "eDP-1") == transform, "\(interface)")
        }
        #expect(hyprland.requests.transform(of: "HDMI-A-1") == "0", "only the built-in panel turns")
        for section in ["touchdevice", "tablet"] {
            #expect(hyprland.requests.history(of: "input:\(section):transform") == ["0", "1", "2", "3", "0"], "\(section)")
            #expect(Set(hyprland.requests.history(of: "input:\(section):output")) == ["eDP-1"])
        }
        #expect(hyprland.requests.all.first == "j/status")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        await follow.stop()
    }

    @Test("A Hyprland restarted with the other configuration is asked again and spoken to in its terms")
    func hyprlandRestart() async throws {
        let folder = try FollowFolder()
        let first = try HyprlandStandIn(
            runtime: folder.runtime, signature: "first", monitors: ["HDMI-A-1", "eDP-1"], configuration: .lua)
        let orientd = try OrientdStandIn(.showing(.portrait))
        let follow = try InProcessFollow(
            [], socket: orientd.path,
            environment: ["XDG_RUNTIME_DIR": folder.runtime, "HYPRLAND_INSTANCE_SIGNATURE": "first"])
        #expect(await follow.read(until: HyprlandStandIn.monitorRequest(.lua, transform: "0")), "\(follow.transcript)")
        // The first state applied whole (the pen's settings come last) before Hyprland goes.
        _ = await follow.next(2)
        #expect(first.requests.history(of: "input:tablet:output") == ["eDP-1"])

        // Hyprland exits (its event socket closes) and starts again, with a new instance signature and a
        // hyprland.conf in place of hyprland.lua.
        first.stop()
        let second = try HyprlandStandIn(
            runtime: folder.runtime, signature: "second", monitors: ["HDMI-A-1", "eDP-1"], configuration: .hyprlang)
        #expect(
            await follow.nextLine()
                == "# hyprland at \(folder.runtime)/hypr/second/.socket.sock, output eDP-1, "
                + HyprlandStandIn.Configuration.hyprlang.summary, "\(follow.transcript)")
        #expect(follow.stderr.contains("orientctl: lost hyprland at \(folder.runtime)/hypr/first/.socket.sock; reconnecting\n"))
        // The state held is applied again, in keyword terms now; then the next one.
        #expect(await follow.next(5).first == HyprlandStandIn.monitorRequest(.hyprlang, transform: "0"))
        orientd.send(.showing(.landscapeLeft))
        #expect(
            await follow.next(5).first == HyprlandStandIn.monitorRequest(.hyprlang, transform: "1"), "\(follow.transcript)")
        #expect(second.requests.transform(of: "eDP-1") == "1")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        await follow.stop()
    }

    @Test(
        "Hyprland: a convertible folded into a tablet turns the named keyboard off, and on again when opened",
        arguments: HyprlandStandIn.Configuration.allCases)
    func hyprlandTabletMode(_ configuration: HyprlandStandIn.Configuration) async throws {
        let folder = try FollowFolder()
        let hyprland = try HyprlandStandIn(
            runtime: folder.runtime, signature: "convertible", monitors: ["eDP-1"], configuration: configuration)
        let orientd = try OrientdStandIn(.showing(.portrait, tabletMode: false))
        let keyboard = "at-translated-set-2-keyboard"
        let follow = try InProcessFollow(
            ["--disable-in-tablet-mode", keyboard], socket: orientd.path,
            environment: ["XDG_RUNTIME_DIR": folder.runtime, "HYPRLAND_INSTANCE_SIGNATURE": "convertible"])
        // On outside tablet mode (after the connection's line and the screen's turn), off in it, on again after.
        let start = await follow.next(2 + Self.requestsPerTurn(configuration))
        #expect(start.last?.contains(keyboard) == true, "\(follow.transcript)")
        orientd.send(.showing(.portrait, tabletMode: true))
        #expect(await follow.nextLine()?.contains(keyboard) == true, "\(follow.transcript)")
        orientd.send(.showing(.portrait, tabletMode: false))
        #expect(await follow.nextLine()?.contains(keyboard) == true, "\(follow.transcript)")
        let enabled = hyprland.requests.history(of: "device[\(keyboard)]:enabled")
        #expect(enabled == ["true", "false", "true"], "\(follow.transcript)")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        await follow.stop()
    }

    /// niri's request that turns `output`.
    static func niriRequest(_ output: String, _ transform: String) -> String {
        #"{"Output":{"output":""# + output + #"","action":{"Transform":{"transform":""# + transform + #""}}}}"#
    }

    @Test("niri: Outputs, then Output Transform requests on one connection; a restart is followed")
    func niri() async throws {
        let folder = try FollowFolder()
        let first = try NiriStandIn(path: folder.runtime + "/niri.wayland-1.100.sock", outputs: ["eDP-1"])
        let orientd = try OrientdStandIn(.showing(.portrait))
        let follow = try InProcessFollow(
            [], socket: orientd.path, environment: ["XDG_RUNTIME_DIR": folder.runtime, "NIRI_SOCKET": first.path])
        #expect(await follow.nextLine() == "# niri at \(first.path), output eDP-1")
        #expect(await follow.nextLine() == Self.niriRequest("eDP-1", "Normal"), "\(follow.transcript)")
        // niri's transforms are counter-clockwise, as the rotation.
        for (interface, transform) in zip(Self.turns.map(\.0), ["90", "180", "270", "Normal"]) {
            orientd.send(.showing(interface))
            #expect(await follow.nextLine() == Self.niriRequest("eDP-1", transform), "\(follow.transcript)")
            #expect(first.requests.transform(of: "eDP-1") == transform, "\(interface)")
        }
        #expect(first.requests.all.first == "\"Outputs\"")
        #expect(first.connections == 1, "one connection for the outputs and every request")

        first.stop()
        let second = try NiriStandIn(path: folder.runtime + "/niri.wayland-1.200.sock", outputs: ["eDP-1"])
        #expect(await follow.nextLine() == "# niri at \(second.path), output eDP-1", "\(follow.transcript)")
        #expect(await follow.nextLine() == Self.niriRequest("eDP-1", "Normal"), "the state held, applied again")
        orientd.send(.showing(.landscapeRight))
        #expect(await follow.nextLine() == Self.niriRequest("eDP-1", "270"), "\(follow.transcript)")
        #expect(second.requests.transform(of: "eDP-1") == "270")
        await follow.stop()
    }

    @Test("--dry-run prints the requests and sends none; --output picks another output")
    func dryRun() async throws {
        let folder = try FollowFolder()
        let niri = try NiriStandIn(path: folder.runtime + "/niri.wayland-1.300.sock", outputs: ["eDP-1", "DP-2"])
        let orientd = try OrientdStandIn(.showing(.portrait))
        let follow = try InProcessFollow(
            ["--dry-run", "--output", "DP-2"], socket: orientd.path,
            environment: ["XDG_RUNTIME_DIR": folder.runtime, "NIRI_SOCKET": niri.path])
        #expect(await follow.nextLine() == "# niri at \(niri.path), output DP-2")
        #expect(await follow.nextLine() == Self.niriRequest("DP-2", "Normal"), "\(follow.transcript)")
        orientd.send(.showing(.landscapeLeft))
        #expect(await follow.nextLine() == Self.niriRequest("DP-2", "90"), "\(follow.transcript)")
        #expect(niri.requests.all.allSatisfy { $0 == "\"Outputs\"" }, "\(niri.requests.all)")
        #expect(niri.requests.transform(of: "DP-2") == "Normal")
        await follow.stop()
    }
}
