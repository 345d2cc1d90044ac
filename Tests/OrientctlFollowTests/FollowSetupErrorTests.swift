import OrientCore
import OrientProtocol
import OrientTestSupport
import Testing

/// What ends `orientctl follow` with an error, in process: the status the binary exits with and the message it
/// prints (`orientctl: MESSAGE` on standard error).
@Suite("orientctl follow's errors, in process", .timeLimit(.minutes(1)))
struct FollowSetupErrorTests {
    /// No daemon here: each of these ends follow before it asks orientd anything.
    static let noDaemon = "/nonexistent/orientd.sock"

    @Test("No compositor session is an error that says which variables it looked at")
    func noSession() async throws {
        let folder = try FollowFolder()
        let follow = try InProcessFollow([], socket: Self.noDaemon, environment: ["XDG_RUNTIME_DIR": folder.runtime])
        let (status, message) = await follow.ending()
        #expect(status == 69)
        #expect(message.contains("none of SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET is set"), "\(message)")
    }

    @Test("Several built-in panels without --output is an error that names them")
    func severalPanels() async throws {
        let folder = try FollowFolder()
        let hyprland = try HyprlandStandIn(
            runtime: folder.runtime, signature: "two", monitors: ["eDP-1", "eDP-2"], configuration: .hyprlang)
        let follow = try InProcessFollow(
            [], socket: Self.noDaemon,
            environment: ["XDG_RUNTIME_DIR": folder.runtime, "HYPRLAND_INSTANCE_SIGNATURE": hyprland.signature])
        let (status, message) = await follow.ending()
        #expect(status == 69)
        #expect(message == "several built-in panels (eDP-1, eDP-2); choose one with --output")
    }

    @Test(
        "A compositor named with none running is told at once, with --dry-run too, rather than waited for",
        arguments: [[], ["--dry-run"]])
    func absentCompositor(_ dryRun: [String]) async throws {
        let folder = try FollowFolder()
        let follow = try InProcessFollow(
            ["--compositor", "sway"] + dryRun, socket: Self.noDaemon, environment: ["XDG_RUNTIME_DIR": folder.runtime])
        let (status, message) = await follow.ending()
        #expect(status == 69)
        #expect(message == "no sway socket: SWAYSOCK is not set and none is in \(folder.runtime)")
    }

    @Test("niri with --disable-in-tablet-mode is bad usage (64): its IPC cannot turn devices off")
    func niriCannotDisable() async throws {
        let follow = try InProcessFollow(
            ["--compositor", "niri", "--disable-in-tablet-mode", "kbd"], socket: Self.noDaemon, environment: [:])
        let (status, message) = await follow.ending()
        #expect(status == 64)
        #expect(message == "--disable-in-tablet-mode: niri's IPC cannot turn input devices off")
    }

    @Test("A Hyprland that comes back with several built-in panels ends follow as at start (69)")
    func restartedWithSeveralPanels() async throws {
        let folder = try FollowFolder()
        let first = try HyprlandStandIn(
            runtime: folder.runtime, signature: "first", monitors: ["eDP-1"], configuration: .lua)
        let orientd = try OrientdStandIn(.showing(.portrait))
        let follow = try InProcessFollow(
            [], socket: orientd.path,
            environment: ["XDG_RUNTIME_DIR": folder.runtime, "HYPRLAND_INSTANCE_SIGNATURE": "first"])
        // Connected, and the first state applied (monitor, touch, pen).
        #expect(await follow.next(4).count == 4, "\(follow.transcript)")
        first.stop()
        let second = try HyprlandStandIn(
            runtime: folder.runtime, signature: "second", monitors: ["eDP-1", "eDP-2"], configuration: .lua)
        let (status, message) = await follow.ending()
        #expect(status == 69)
        #expect(message == "several built-in panels (eDP-1, eDP-2); choose one with --output")
        #expect(await follow.nextLine() == nil, "nothing more printed: \(follow.transcript)")
        #expect(second.requests.all.allSatisfy { ["j/status", "j/monitors"].contains($0) }, "nothing asked of it")
        #expect(
            follow.stderr == "orientctl: lost hyprland at \(folder.runtime)/hypr/first/.socket.sock; reconnecting\n",
            "only the loss is told before the ending message")
    }
}
