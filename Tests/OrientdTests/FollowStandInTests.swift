import Foundation
import OrientCore
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `orientctl follow` against stand-ins for Hyprland and niri (not packaged in Debian), which answer as their
/// documented protocols do, and a real orientd fed poses through a named pipe.
@Suite("orientctl follow on Hyprland and niri stand-ins", .serialized)
struct FollowStandInTests {
    /// A daemon, its pose feed, and a folder with a runtime directory for the compositor's sockets.
    final class Session {
        let folder: String
        let runtime: String
        let feed: PoseFeed
        let daemon: DaemonHarness

        init() throws {
            folder = try DaemonHarness.makeFolder()
            runtime = folder + "/runtime"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            feed = try PoseFeed(folder: folder)
            feed.hold(.portrait)
            daemon = try DaemonHarness(
                ["--replay", feed.path, "--speed", "max", "--sampling", "always"], folder: folder)
            try daemon.waitUntilListening()
        }

        func follow(_ arguments: [String] = [], environment: [String: String]) throws -> FollowProcess {
            try FollowProcess(
                OrientdProcess.orientctl, ["--socket", daemon.socket, "follow"] + arguments,
                environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime].merging(environment) { $1 },
                errorLog: folder + "/follow-\(UUID().uuidString.prefix(8)).log")
        }

        /// Turns the device through the four orientations; after each, the request printed must match and the
        /// stand-in's transform of the chosen output must be `expected`'s.
        func turn(
            _ follow: FollowProcess, from start: Int, expected: [String], request: (String) -> String,
            transform: () -> String?
        ) -> Int? {
            var seen = start
            for (device, value) in zip(FollowSwayTests.turns.map(\.0), expected) {
                feed.hold(device)
                guard let line = follow.waitForLine(after: seen + 1, { $0 == request(value) }) else { return nil }
                seen = line
                #expect(transform() == value, "\(device): \(follow.transcript)")
            }
            return seen
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The request that turns the stand-in's eDP-1 (mode, place and scale as its `j/monitors` lists them), in the
    /// configuration's terms.
    static func monitorRequest(_ configuration: HyprlandStandIn.Configuration, transform: String) -> String {
        configuration == .lua
            ? #"/eval hl.monitor({ output = "eDP-1", mode = "2880x1800@90.001", position = "2880x0", scale = 1.5, "#
                + "transform = \(transform) })"
            : "/keyword monitor eDP-1,2880x1800@90.001,2880x0,1.5,transform,\(transform)"
    }

    @Test(
        "Hyprland: keyword or eval as its status reports; the panel, touch and pen turned through four orientations",
        arguments: HyprlandStandIn.Configuration.allCases)
    func hyprland(_ configuration: HyprlandStandIn.Configuration) throws {
        let session = try Session()
        let hyprland = try HyprlandStandIn(
            runtime: session.runtime, signature: "first", monitors: ["HDMI-A-1", "eDP-1"], configuration: configuration)
        let follow = try session.follow(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "first"])
        let connected =
            "# hyprland at \(session.runtime)/hypr/first/.socket.sock, output eDP-1, \(configuration.summary)"
        var seen = try #require(follow.waitForLine { $0 == connected }, "\(follow.transcript)")
        let request = { Self.monitorRequest(configuration, transform: $0) }
        seen = try #require(follow.waitForLine(after: seen) { $0 == request("0") }, "\(follow.transcript)")
        // Counter-clockwise wl_output numbers: landscape-left (rotation 90) is 1.
        _ = try #require(
            session.turn(follow, from: seen, expected: ["1", "2", "3", "0"], request: request) {
                hyprland.requests.transform(of: "eDP-1")
            }, "\(follow.transcript)")
        #expect(hyprland.requests.transform(of: "HDMI-A-1") == "0", "only the built-in panel turns")
        for section in ["touchdevice", "tablet"] {
            let turns = { hyprland.requests.history(of: "input:\(section):transform") }
            #expect(waitFor(timeout: 30) { turns() == ["0", "1", "2", "3", "0"] }, "\(section): \(turns())")
            #expect(Set(hyprland.requests.history(of: "input:\(section):output")) == ["eDP-1"])
        }
        #expect(hyprland.requests.all.first == "j/status")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        follow.stop()
    }

    @Test("A Hyprland restarted with the other configuration is asked again and spoken to in its terms")
    func hyprlandRestart() throws {
        let session = try Session()
        var hyprland = try HyprlandStandIn(
            runtime: session.runtime, signature: "first", monitors: ["HDMI-A-1", "eDP-1"], configuration: .lua)
        let follow = try session.follow(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "first"])
        let seen = try #require(
            follow.waitForLine { $0 == Self.monitorRequest(.lua, transform: "0") }, "\(follow.transcript)")
        // The first state applied whole (the pen's settings come last) before Hyprland goes.
        #expect(waitFor(timeout: 30) { hyprland.requests.history(of: "input:tablet:output") == ["eDP-1"] })

        // Hyprland exits (its event socket closes) and starts again, with a new instance signature and a
        // hyprland.conf in place of hyprland.lua.
        hyprland.stop()
        hyprland = try HyprlandStandIn(
            runtime: session.runtime, signature: "second", monitors: ["HDMI-A-1", "eDP-1"], configuration: .hyprlang)
        session.feed.hold(.landscapeRight)
        let connected = "# hyprland at \(session.runtime)/hypr/second/.socket.sock, output eDP-1, "
            + HyprlandStandIn.Configuration.hyprlang.summary
        #expect(follow.waitForLine(after: seen + 1) { $0 == connected } != nil, "\(follow.transcript)")
        #expect(waitFor(timeout: 30) { hyprland.requests.transform(of: "eDP-1") == "1" }, "\(follow.transcript)")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        follow.stop()
    }

    @Test(
        "Hyprland: a convertible folded into a tablet turns the named keyboard off, and on again when opened",
        arguments: HyprlandStandIn.Configuration.allCases)
    func hyprlandTabletMode(_ configuration: HyprlandStandIn.Configuration) throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let runtime = folder + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let trace = try ConvertibleTrace.write(FollowSwayTests.foldedAndOpened)
        let traceFolder = URL(fileURLWithPath: trace).deletingLastPathComponent().path
        defer { try? FileManager.default.removeItem(atPath: traceFolder) }
        let daemon = try DaemonHarness(["--replay", trace, "--speed", "max", "--replay-wait-for", "1"], folder: folder)
        try daemon.waitUntilListening()
        let hyprland = try HyprlandStandIn(
            runtime: runtime, signature: "convertible", monitors: ["eDP-1"], configuration: configuration)

        let keyboard = "at-translated-set-2-keyboard"
        let follow = try FollowProcess(
            OrientdProcess.orientctl,
            ["--socket", daemon.socket, "follow", "--disable-in-tablet-mode", keyboard],
            environment: [
                "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "HYPRLAND_INSTANCE_SIGNATURE": "convertible",
            ],
            errorLog: folder + "/follow.log")
        // On outside tablet mode, off in it, on again after.
        let enabled = { hyprland.requests.history(of: "device[\(keyboard)]:enabled") }
        #expect(waitFor(timeout: 60) { enabled() == ["true", "false", "true"] }, "\(enabled()) \(follow.transcript)")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        follow.stop()
    }

    @Test("niri: Outputs, then Output Transform requests on one connection; a restart is followed")
    func niri() throws {
        let session = try Session()
        var niri = try NiriStandIn(path: session.runtime + "/niri.wayland-1.100.sock", outputs: ["eDP-1"])
        let follow = try session.follow(environment: ["NIRI_SOCKET": niri.path])
        let request = { (transform: String) in
            #"{"Output":{"output":"eDP-1","action":{"Transform":{"transform":""# + transform + #""}}}}"#
        }
        var seen = try #require(follow.waitForLine { $0 == request("Normal") }, "\(follow.transcript)")
        seen = try #require(
            session.turn(follow, from: seen, expected: ["90", "180", "270", "Normal"], request: request) {
                niri.requests.transform(of: "eDP-1")
            }, "\(follow.transcript)")
        #expect(niri.requests.all.first == "\"Outputs\"")
        #expect(niri.requests.all.contains(#"{"Output":{"output":"eDP-1","action":{"Transform":{"transform":"90"}}}}"#))

        niri.stop()
        niri = try NiriStandIn(path: session.runtime + "/niri.wayland-1.200.sock", outputs: ["eDP-1"])
        session.feed.hold(.landscapeLeft)
        #expect(waitFor(timeout: 30) { niri.requests.transform(of: "eDP-1") == "270" }, "\(follow.transcript)")
        follow.stop()
    }

    @Test("--dry-run prints the requests and sends none; --output picks another output")
    func dryRun() throws {
        let session = try Session()
        let niri = try NiriStandIn(path: session.runtime + "/niri.wayland-1.300.sock", outputs: ["eDP-1", "DP-2"])
        let follow = try session.follow(["--dry-run", "--output", "DP-2"], environment: ["NIRI_SOCKET": niri.path])
        #expect(
            follow.waitForLine { $0 == #"{"Output":{"output":"DP-2","action":{"Transform":{"transform":"Normal"}}}}"# }
                != nil,
            "\(follow.transcript)")
        session.feed.hold(.landscapeRight)
        #expect(
            follow.waitForLine { $0 == #"{"Output":{"output":"DP-2","action":{"Transform":{"transform":"90"}}}}"# }
                != nil)
        #expect(niri.requests.all.allSatisfy { $0 == "\"Outputs\"" }, "\(niri.requests.all)")
        follow.stop()
    }

    @Test("No compositor session, or several built-in panels without --output, is an error that says what it saw")
    func errors() throws {
        let session = try Session()
        let none = try session.follow(environment: [:])
        none.process.waitUntilExit()
        #expect(none.process.terminationStatus == 69)
        #expect(
            none.stderr.contains("none of SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET is set"), "\(none.stderr)")

        let hyprland = try HyprlandStandIn(
            runtime: session.runtime, signature: "two", monitors: ["eDP-1", "eDP-2"], configuration: .hyprlang)
        let several = try session.follow(environment: ["HYPRLAND_INSTANCE_SIGNATURE": hyprland.signature])
        several.process.waitUntilExit()
        #expect(several.process.terminationStatus == 69)
        #expect(
            several.stderr.contains("several built-in panels (eDP-1, eDP-2); choose one with --output"),
            "\(several.stderr)")

        // A compositor named with none running: told at once, with --dry-run too, rather than waited for.
        for dryRun in [[], ["--dry-run"]] {
            let absent = try session.follow(["--compositor", "sway"] + dryRun, environment: [:])
            absent.process.waitUntilExit()
            #expect(absent.process.terminationStatus == 69, "\(dryRun): \(absent.stderr)")
            #expect(
                absent.stderr.contains("no sway socket: SWAYSOCK is not set and none is in \(session.runtime)"),
                "\(absent.stderr)")
        }

        let niri = try session.follow(["--compositor", "niri", "--disable-in-tablet-mode", "kbd"], environment: [:])
        niri.process.waitUntilExit()
        #expect(niri.process.terminationStatus == 64, "\(niri.stderr)")
    }
}
