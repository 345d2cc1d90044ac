import OrientFollow
import Testing

@Suite("follow's decisions")
struct FollowPlannerTests {
    @Test(
        "Rotation: the daemon's field when sent, else derived as a portrait panel has it",
        arguments: [
            ("portrait", nil, 0), ("landscape-left", nil, 90), ("portrait-upside-down", nil, 180),
            ("landscape-right", nil, 270), ("landscape-left", 270, 270), ("portrait", 90, 90),
        ] as [(String, Int?, Int)])
    func rotation(interface: String, sent: Int?, expected: Int) {
        #expect(FollowState(interface: interface, rotation: sent).contentRotation == expected)
    }

    @Test("No rotation while the interface is unknown, and a bad rotation field is not trusted")
    func unknownRotation() {
        #expect(FollowState(interface: "unknown").contentRotation == nil)
        #expect(FollowState(interface: "portrait", rotation: 45).contentRotation == 0)
    }

    @Test("A change turns the output and maps touch and pen; the same rotation again sends nothing")
    func turns() {
        var planner = FollowPlanner(settings: FollowSettings())
        #expect(
            planner.actions(for: FollowState(interface: "landscape-left")) == [
                .transform(rotation: 90), .mapTouch(rotation: 90), .mapPen(rotation: 90),
            ])
        #expect(planner.actions(for: FollowState(interface: "landscape-left")).isEmpty)
        #expect(planner.actions(for: FollowState(interface: "portrait")).first == .transform(rotation: 0))
    }

    @Test("--no-touch and --no-pen leave their mappings alone")
    func noTouchNoPen() {
        var planner = FollowPlanner(settings: FollowSettings(touch: false, pen: false))
        #expect(planner.actions(for: FollowState(interface: "landscape-right")) == [.transform(rotation: 270)])
    }

    @Test("A locked state never turns the screen, not even the first; unlocking applies the current rotation")
    func lock() {
        var planner = FollowPlanner(settings: FollowSettings())
        #expect(planner.actions(for: FollowState(interface: "landscape-left", locked: true)).isEmpty)
        #expect(planner.actions(for: FollowState(interface: "portrait", locked: true)).isEmpty)
        #expect(planner.actions(for: FollowState(interface: "portrait")).first == .transform(rotation: 0))
        _ = planner.actions(for: FollowState(interface: "portrait", locked: true))
        // Unlocked at the same orientation: applied again, in case the user turned the screen by hand meanwhile.
        #expect(planner.actions(for: FollowState(interface: "portrait")).first == .transform(rotation: 0))
    }

    @Test("Tablet mode turns the named devices off, and back on when it ends, whatever the lock")
    func tabletMode() {
        var planner = FollowPlanner(
            settings: FollowSettings(touch: false, pen: false, disableInTabletMode: ["kbd", "pad"]))
        #expect(
            planner.actions(for: FollowState(interface: "portrait", tabletMode: false)) == [
                .transform(rotation: 0), .inputs(["kbd", "pad"], enabled: true),
            ])
        #expect(
            planner.actions(for: FollowState(interface: "portrait", locked: true, tabletMode: true)) == [
                .inputs(["kbd", "pad"], enabled: false)
            ])
        #expect(planner.actions(for: FollowState(interface: "portrait", locked: true, tabletMode: true)).isEmpty)
        #expect(planner.actions(for: FollowState(interface: "portrait", locked: true, tabletMode: nil)).isEmpty)
        #expect(
            planner.actions(for: FollowState(interface: "portrait", locked: true, tabletMode: false)) == [
                .inputs(["kbd", "pad"], enabled: true)
            ])
    }

    @Test("Without --disable-in-tablet-mode, tablet mode sends nothing")
    func tabletModeIgnored() {
        var planner = FollowPlanner(settings: FollowSettings())
        _ = planner.actions(for: FollowState(interface: "portrait", tabletMode: false))
        #expect(planner.actions(for: FollowState(interface: "portrait", tabletMode: true)).isEmpty)
    }
}

@Suite("follow's choice of output and compositor")
struct OutputChoiceTests {
    @Test("The built-in panel among others; the only output; the one asked for")
    func choices() throws {
        #expect(try OutputChoice.choose(from: ["HDMI-A-1", "eDP-1"], requested: nil) == "eDP-1")
        #expect(try OutputChoice.choose(from: ["DSI-1", "DP-2"], requested: nil) == "DSI-1")
        #expect(try OutputChoice.choose(from: ["LVDS-1"], requested: nil) == "LVDS-1")
        #expect(try OutputChoice.choose(from: ["HEADLESS-1"], requested: nil) == "HEADLESS-1")
        #expect(try OutputChoice.choose(from: ["HDMI-A-1", "eDP-1"], requested: "HDMI-A-1") == "HDMI-A-1")
    }

    @Test("Several candidates, none, or a missing name are errors that list what the compositor has")
    func errors() {
        #expect(throws: FollowError("several built-in panels (eDP-1, eDP-2); choose one with --output")) {
            try OutputChoice.choose(from: ["eDP-1", "eDP-2"], requested: nil)
        }
        #expect(throws: FollowError("no built-in panel (eDP, LVDS or DSI) among DP-1, DP-2; choose one with --output"))
        {
            try OutputChoice.choose(from: ["DP-1", "DP-2"], requested: nil)
        }
        #expect(throws: FollowError("output eDP-9 not found; the compositor lists: eDP-1", retry: true)) {
            try OutputChoice.choose(from: ["eDP-1"], requested: "eDP-9")
        }
    }

    @Test("The session's compositor from its variable; none is an error naming what was looked for")
    func detect() throws {
        #expect(try CompositorKind.detect(environment: ["SWAYSOCK": "/run/user/1000/sway-ipc.sock"]) == .sway)
        #expect(try CompositorKind.detect(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "abc"]) == .hyprland)
        #expect(try CompositorKind.detect(environment: ["NIRI_SOCKET": "/run/user/1000/niri.sock"]) == .niri)
        #expect(
            throws: FollowError(
                "no sway, Hyprland or niri session found "
                    + "(none of SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET is set); "
                    + "use --compositor to name one")
        ) {
            try CompositorKind.detect(environment: ["SWAYSOCK": ""])
        }
    }
}
