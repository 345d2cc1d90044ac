import Foundation
import OrientCore
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `orientctl follow` through the whole path on a stand-in for Hyprland (not packaged in Debian): a real orientd
/// fed poses through a named pipe, the orientctl binary finding Hyprland from its session's variables. What follow
/// says to Hyprland and niri in each case (their configurations, restarts, tablet mode, --dry-run, --output, the
/// errors) is checked in process (OrientctlFollowTests); a real sway is in FollowSwayTests.
@Suite("orientctl follow on a Hyprland stand-in, through the real daemon and binary")
struct FollowStandInTests {
    @Test("Hyprland: the panel turned through four orientations as the daemon sees the device turn")
    func hyprland() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let runtime = folder + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let feed = try PoseFeed(folder: folder)
        feed.hold(.portrait)
        let daemon = try DaemonHarness(["--replay", feed.path, "--speed", "max", "--sampling", "always"], folder: folder)
        try daemon.waitUntilListening()
        let hyprland = try HyprlandStandIn(
            runtime: runtime, signature: "first", monitors: ["HDMI-A-1", "eDP-1"], configuration: .lua)
        let follow = try FollowProcess(
            OrientdProcess.orientctl, ["--socket", daemon.socket, "follow"],
            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "HYPRLAND_INSTANCE_SIGNATURE": "first"],
            errorLog: folder + "/follow.log")
        defer { follow.stop() }

        let connected = "# hyprland at \(runtime)/hypr/first/.socket.sock, output eDP-1, "
            + HyprlandStandIn.Configuration.lua.summary
        var seen = try #require(follow.waitForLine { $0 == connected }, "\(follow.transcript)")
        let request = { HyprlandStandIn.monitorRequest(.lua, transform: $0) }
        seen = try #require(follow.waitForLine(after: seen) { $0 == request("0") }, "\(follow.transcript)")
        // Counter-clockwise wl_output numbers: the device turned to landscape-right shows landscape-left, 1.
        for (device, transform) in zip(FollowSwayTests.turns.map(\.0), ["1", "2", "3", "0"]) {
            feed.hold(device)
            seen = try #require(
                follow.waitForLine(after: seen + 1) { $0 == request(transform) }, "\(device): \(follow.transcript)")
            #expect(hyprland.requests.transform(of: "eDP-1") == transform, "\(device)")
        }
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
    }
}
