import OrientProtocol
import OrientctlCommands
import Testing

/// What orientctl prints of the daemon's replies, in process against a stand-in daemon: slow replies, fields it does
/// not know, `status` as text and as JSON, and the exit statuses of a refusal (65, 77) and of no daemon (69).
@Suite("orientctl replies and failures, in process")
struct OrientctlRepliesTests {
    @Test("get waits for a slow reply and prints fields it does not know as the daemon sent them")
    func slowReplyWithNewFields() async throws {
        let fields = #""device":"face-up","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":1.5,"fresh":false,"extra":{"a":[1,"}"]}"#
        // Longer than a one-shot get takes the daemon (about a second): no read timeout may cut it short.
        let daemon = try FakeDaemon(delay: 2.5) { id in "{\"ok\":true,\"id\":\(id)," + fields + "}" }
        let get = await InProcessOrientctl.run(["get", "--json", "--socket", daemon.path])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "{" + fields + "}\n")
        #expect(try OrientctlSettingsTests.request(daemon) == .get(nil))
    }

    static let status = #""version":"0.9.1","uptime":12.5,"subscribers":1,"sampling":"always","sensor":{"state":"available","id":"iio:device1","name":"accel_3d","mode":"buffered","rate":50,"location":"display","mount-matrix":"1, 0, 0; 0, 1, 0; 0, 0, 1","mount-matrix-source":"udev ACCEL_MOUNT_MATRIX","mount-matrix-repaired":false,"base":BASE},"future":[1,{"x":"}"}]"#

    private static func status(base: String) -> String { status.replacingOccurrences(of: "BASE", with: base) }

    @Test("status --json prints the daemon's reply on one line, without ok and id, nested sensor and unknown fields as sent")
    func statusJSON() async throws {
        let reply = Self.status(base: "null")
        let daemon = try FakeDaemon(state: reply)
        let status = await InProcessOrientctl.run(["status", "--json", "--socket", daemon.path])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout == "{\(reply)}\n")
        #expect(try OrientctlSettingsTests.request(daemon) == .status)
    }

    @Test("status names the base sensor, where it is and its matrix; none when the daemon says null; nothing from a daemon that does not say")
    func statusBase() async throws {
        let plugged = try FakeDaemon(state: Self.status(base: #"{"id":"iio:device0","name":"accel_3d","path":"/sys/devices/x/iio:device0","mount-matrix":"1, 0, 0; 0, -1, 0; 0, 0, -1","mount-matrix-source":"udev ACCEL_MOUNT_MATRIX","mount-matrix-repaired":false}"#))
        let text = await InProcessOrientctl.run(["status", "--socket", plugged.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == """
            orientd 0.9.1, up 12 s, 1 subscriber(s), sampling always
            sensor: available: iio:device1 (accel_3d), buffered at 50.0 Hz, location display
            mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 from udev ACCEL_MOUNT_MATRIX
            base sensor: iio:device0 (accel_3d) at /sys/devices/x/iio:device0
            base mount matrix: 1, 0, 0; 0, -1, 0; 0, 0, -1 from udev ACCEL_MOUNT_MATRIX

            """)
        // A replayed trace's base: the trace names it, and no path.
        let replayed = try FakeDaemon(state: Self.status(base: #"{"id":"/tmp/fold.trace","name":"iio:device0 accel_3d","mount-matrix":"1, 0, 0; 0, -1, 0; 0, 0, -1","mount-matrix-source":"trace metadata","mount-matrix-repaired":false}"#))
        let fromTrace = await InProcessOrientctl.run(["status", "--socket", replayed.path])
        #expect(fromTrace.stdout.hasSuffix("""
            base sensor: /tmp/fold.trace (iio:device0 accel_3d)
            base mount matrix: 1, 0, 0; 0, -1, 0; 0, 0, -1 from trace metadata

            """), "\(fromTrace.stdout)")

        let none = try FakeDaemon(state: Self.status(base: "null"))
        #expect(await InProcessOrientctl.run(["status", "--socket", none.path]).stdout.hasSuffix(" ACCEL_MOUNT_MATRIX\nbase sensor: none\n"))
        let older = try FakeDaemon(state: Self.status(base: "null").replacingOccurrences(of: #","base":null"#, with: ""))
        #expect(await InProcessOrientctl.run(["status", "--socket", older.path]).stdout.hasSuffix(" ACCEL_MOUNT_MATRIX\n"))
    }

    @Test("status ends with a line per sensor's incidents; doctor's fetch reads the same report, or says why none came")
    func incidents() async throws {
        let state = Self.status(base: "null") + #","incidents":[{"sensor":"accelerometer","count":1,"last":"iio:device0: buffered capture delivered nothing for 2.0 s while the sensor moved; polling instead","at":3.5},{"sensor":"light","count":2,"last":"resumed from sleep: opened again","at":40}]"#
        let daemon = try FakeDaemon(state: state)
        #expect(await InProcessOrientctl.run(["status", "--socket", daemon.path]).stdout.hasSuffix("""
            accelerometer: 1 incident since start, the last at 3.5 s: iio:device0: buffered capture delivered nothing for 2.0 s while the sensor moved; polling instead
            light: 2 incidents since start, the last at 40 s: resumed from sleep: opened again

            """))
        let asked = try FakeDaemon(state: state)
        let fetched = try await RunningDaemonStatus.fetch(path: asked.path).get()
        #expect(fetched.uptime == 12.5 && fetched.incidents?.map(\.count) == [1, 2], "\(fetched)")
        guard case .failure(let none) = await RunningDaemonStatus.fetch(path: "/nonexistent/orientd.sock") else {
            Issue.record("a daemon answered at /nonexistent/orientd.sock")
            return
        }
        #expect(none.message.hasPrefix("orientd is not running (cannot connect to /nonexistent/orientd.sock: "), "\(none)")
    }

    @Test("mask sideways: refused as the daemon refuses a bad field (65), once connected; with no daemon, 69")
    func badMask() async throws {
        let daemon = try FakeDaemon(state: #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available""#)
        let bad = await InProcessOrientctl.run(["mask", "sideways", "--socket", daemon.path])
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("orientctl: orientd refused: ") && bad.stderr.hasSuffix(" (bad-field)\n"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
        let nowhere = await InProcessOrientctl.run(["mask", "sideways", "--socket", "/nonexistent/orientd.sock"])
        #expect(nowhere.status == 69, "\(nowhere.stderr)")
    }

    @Test("A daemon that is not running is 69, naming the socket; the socket may come before the command")
    func notRunning() async throws {
        let gone = await InProcessOrientctl.run(["--socket", "/nonexistent/orientd.sock", "get", "--json"])
        #expect(gone.status == 69)
        #expect(gone.stderr.hasPrefix("orientctl: orientd is not running (cannot connect to /nonexistent/orientd.sock: "), "\(gone.stderr)")
        let daemon = try FakeDaemon(state: #""device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available""#)
        let get = await InProcessOrientctl.run(["--socket", daemon.path, "get", "--json"])
        #expect(get.status == 0 && get.stdout.contains("\"device\":\"portrait\""), "\(get.stderr)")
    }

    @Test("A refusal is 65, a permission refused 77 and an internal error 70, each with the daemon's message and code")
    func refusals() async throws {
        for (code, status) in [("empty-mask", Int32(65)), ("permission-denied", 77), ("internal-error", 70)] {
            let daemon = try FakeDaemon(hangUp: true) { id in
                #"{"ok":false,"id":\#(id),"error":{"code":"\#(code)","message":"not for you"}}"#
            }
            let lock = await InProcessOrientctl.run(["lock", "--socket", daemon.path])
            #expect(lock.status == status, "\(code)")
            #expect(lock.stderr == "orientctl: orientd refused: not for you (\(code))\n")
            #expect(try OrientctlSettingsTests.request(daemon) == .lock)
        }
    }
}
