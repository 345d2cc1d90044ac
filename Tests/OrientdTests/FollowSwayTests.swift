import Foundation
import OrientCore
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `orientctl follow` against a real sway (Debian's package, headless) and a real orientd replaying poses fed
/// through a named pipe. sway's own get_outputs (swaymsg) is the judge.
@Suite(
    "orientctl follow on a real sway", .serialized,
    .enabled(if: HeadlessSway.isAvailable, Comment(rawValue: HeadlessSway.skipReason)))
struct FollowSwayTests {
    /// Device orientation held, and sway's transform that must follow (portrait panel: interface landscape-left
    /// is rotation 90, which sway, turning clockwise, calls 270).
    static let turns: [(DeviceOrientation, String)] = [
        (.landscapeRight, "270"), (.portraitUpsideDown, "180"), (.landscapeLeft, "90"), (.portrait, "normal"),
    ]

    @Test("Turns the output through the four orientations, maps touch and pen, obeys the lock, survives restarts")
    func followsSway() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sway = try HeadlessSway(folder: folder)
        try sway.start()
        let firstSocket = sway.socket
        var feed = try PoseFeed(folder: folder)
        feed.hold(.portrait)
        let daemon = try DaemonHarness(
            ["--replay", feed.path, "--speed", "max", "--sampling", "always"], folder: folder)
        try daemon.waitUntilListening()
        // The daemon binds, then sets the socket's mode: root connects before that, nobody only after.
        #expect(waitFor(timeout: 60) { Self.othersMayConnect(daemon.socket) }, "\(daemon.log)")

        let follow = try Self.follow(sway, daemon: daemon, folder: folder)
        var seen = try #require(
            follow.waitForLine { $0.contains("transform normal") }, "\(follow.transcript)\n\(daemon.log)")
        #expect(try sway.outputs()["HEADLESS-1"] == "normal")

        for (device, transform) in Self.turns {
            feed.hold(device)
            seen = try #require(
                follow.waitForLine(after: seen + 1) { $0 == "output \"HEADLESS-1\" transform \(transform)" },
                "\(device): \(follow.transcript)")
            #expect(try sway.outputs()["HEADLESS-1"] == transform, "\(device)")
            // Printed once sway answered success to each.
            let touch = follow.waitForLine(after: seen) { $0 == "input type:touch map_to_output \"HEADLESS-1\"" }
            let pen = follow.waitForLine(after: seen) { $0 == "input type:tablet_tool map_to_output \"HEADLESS-1\"" }
            #expect(touch != nil && pen != nil, "\(follow.transcript)")
        }
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")

        // The rotation lock: the device turns, the screen does not; unlocking applies the orientation now held.
        let control = try LineClient(path: daemon.socket)
        #expect(control.request(#""op":"lock""#)?.locked == true)
        seen = try #require(follow.waitForLine(after: seen) { $0.hasPrefix("# locked") }, "\(follow.transcript)")
        feed.hold(.landscapeRight)
        #expect(try daemon.poll { $0.device == "landscape-right" }?.interface == "portrait")
        #expect(try sway.outputs()["HEADLESS-1"] == "normal", "locked: the screen stays")
        #expect(control.request(#""op":"unlock""#)?.locked == false)
        seen = try #require(
            follow.waitForLine(after: seen) { $0 == "output \"HEADLESS-1\" transform 270" }, "\(follow.transcript)")
        #expect(try sway.outputs()["HEADLESS-1"] == "270")

        // sway killed and started again (a new pid, so a new socket name): follow finds it and turns it again.
        sway.kill()
        try sway.start()
        #expect(sway.socket != firstSocket)
        seen = try #require(
            follow.waitForLine(after: seen + 1) { $0.hasPrefix("# sway at \(sway.socket)") }, "\(follow.transcript)")
        seen = try #require(
            follow.waitForLine(after: seen) { $0 == "output \"HEADLESS-1\" transform 270" }, "\(follow.transcript)")
        #expect(try sway.outputs()["HEADLESS-1"] == "270")

        // orientd killed and started again: follow subscribes again and follows the new daemon.
        daemon.signal(SIGKILL)
        feed = try PoseFeed(folder: folder, name: "poses-2.fifo")
        feed.hold(.portraitUpsideDown)
        try daemon.restart(["--replay", feed.path, "--speed", "max", "--sampling", "always"])
        try daemon.waitUntilListening()
        seen = try #require(
            follow.waitForLine(after: seen + 1) { $0 == "output \"HEADLESS-1\" transform 180" },
            "\(follow.transcript)\n\(daemon.log)")
        #expect(try sway.outputs()["HEADLESS-1"] == "180")
        #expect(follow.process.isRunning)
        follow.stop()
    }

    @Test("A convertible folded into a tablet turns the named keyboard off, and on again when opened")
    func tabletMode() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sway = try HeadlessSway(folder: folder)
        try sway.start()
        let trace = try ConvertibleTrace.write(Self.foldedAndOpened)
        let traceFolder = URL(fileURLWithPath: trace).deletingLastPathComponent().path
        defer { try? FileManager.default.removeItem(atPath: traceFolder) }
        let daemon = try DaemonHarness(["--replay", trace, "--speed", "max", "--replay-wait-for", "1"], folder: folder)
        try daemon.waitUntilListening()
        #expect(waitFor(timeout: 60) { Self.othersMayConnect(daemon.socket) }, "\(daemon.log)")

        let keyboard = "1:1:AT_Translated_Set_2_keyboard"
        let follow = try Self.follow(
            sway, daemon: daemon, folder: folder, options: ["--disable-in-tablet-mode", keyboard])
        let command = { (state: String) in "input \"\(keyboard)\" events \(state)" }
        // Printed once sway answered success: on outside tablet mode, off in it, on again after.
        let on = try #require(follow.waitForLine { $0 == command("enabled") }, "\(follow.transcript)")
        let off = try #require(follow.waitForLine(after: on) { $0 == command("disabled") }, "\(follow.transcript)")
        #expect(follow.waitForLine(after: off) { $0 == command("enabled") } != nil, "\(follow.transcript)")
        #expect(!follow.stderr.contains("refused"), "\(follow.stderr)")
        follow.stop()
    }

    /// A convertible open at 100°, folded back to 360° and held, then opened again to 100° (tablet mode on past
    /// 200°, off below 160°), at 50 Hz.
    static let foldedAndOpened = (0..<500).map { i in
        let t = Double(i) / 50
        let theta = t < 2 ? 100 : t < 3 ? 100 + 260 * (t - 2) : t < 6 ? 360 : t < 7 ? 360 - 260 * (t - 6) : 100
        return ConvertibleTrace.sample(time: t, theta: theta)
    }

    /// `orientctl follow` as nobody, in sway's session.
    static func follow(
        _ sway: HeadlessSway, daemon: DaemonHarness, folder: String, options: [String] = []
    ) throws -> FollowProcess {
        try FollowProcess(
            HeadlessSway.asNobody[0],
            Array(HeadlessSway.asNobody.dropFirst())
                + [OrientdProcess.orientctl, "--socket", daemon.socket, "follow"] + options,
            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": sway.runtime, "SWAYSOCK": sway.socket],
            errorLog: folder + "/follow-\(UUID().uuidString.prefix(8)).log")
    }

    static func othersMayConnect(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & 0o002 != 0
    }
}
