import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The net.hadess.SensorProxy facade on a private system bus, with emulated sensors (umockdev), read by busctl,
/// GIO clients and iio-sensor-proxy's own client monitor-sensor (its daemon is never run).
@Suite(
    "The net.hadess.SensorProxy facade on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct DBusFacadeTests {
    static let clientScript = String(#filePath).replacingOccurrences(of: "DBusFacadeTests.swift", with: "Fixtures/bus_client.py")
    static let demoTrace = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Traces/demo.trace").standardized.path

    /// Raw readings at scale 0.0383072 (256 is 1 g) with the identity matrix, for each upright pose.
    static let poses: [(x: String, y: String, busName: String)] = [
        ("0", "-256", "normal"), ("256", "0", "left-up"), ("0", "256", "bottom-up"), ("-256", "0", "right-up"),
    ]

    /// One private bus, one emulated portrait accelerometer, and orientd serving both.
    final class Setup {
        let folder: String
        let bus: PrivateBus
        let testbed: UmockdevTestbed
        let devicePath: String
        var daemon: DaemonHarness!

        init(locale: String = "C.UTF-8", daemonArguments: [String] = [], startDaemon: Bool = true) throws {
            folder = try DaemonHarness.makeFolder()
            bus = try PrivateBus(folder: folder)
            testbed = try UmockdevTestbed()
            devicePath = try testbed.addDevice(
                "iio:device0", attributes: LiveSensorTests.portraitAttributes,
                properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
            if startDaemon { try start(locale: locale, daemonArguments) }
        }

        var environment: [String: String] { testbed.environment.merging(bus.environment) { $1 } }

        func start(locale: String = "C.UTF-8", _ arguments: [String] = []) throws {
            let localeEnvironment = ["LANG": locale, "LC_ALL": locale]
            daemon = try DaemonHarness(
                ["--dbus", "--rate", "50"] + arguments, folder: folder,
                environment: environment.merging(localeEnvironment) { $1 })
            try daemon.waitUntilListening()
        }

        func waitForName(timeout: Double = 10) -> Bool {
            waitFor(timeout: timeout) { self.bus.property("HasAccelerometer") != nil }
        }

        func pose(_ pose: (x: String, y: String, busName: String)) throws {
            try testbed.set(devicePath, "in_accel_x_raw", pose.x)
            try testbed.set(devicePath, "in_accel_y_raw", pose.y)
        }

        func client() throws -> LineProcess {
            let client = try LineProcess(UmockdevTestbed.python, [DBusFacadeTests.clientScript], environment: bus.environment)
            guard client.waitForLine({ $0.hasPrefix("ready ") }) != nil else { throw HarnessError("bus_client.py did not start") }
            return client
        }

        func monitorSensor(locale: String) throws -> LineProcess {
            // stdbuf: monitor-sensor prints through stdio, block-buffered into a pipe.
            try LineProcess(
                "/usr/bin/stdbuf", ["-oL", PrivateBus.monitorSensor, "--accel"],
                environment: bus.environment.merging(["LANG": locale, "LC_ALL": locale]) { $1 })
        }

        /// read(2) calls the daemon made, all threads together (/proc/PID/io).
        func readCalls() -> Int {
            let text = (try? String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/io", encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix("syscr:") }
            return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? -1
        }

        deinit {
            daemon = nil
            bus.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The real daemon's wiring, end to end: the object it registers, a claim by iio-sensor-proxy's own client opening
    /// the sensor, a signal per turn, and the sensor closed, read no more, once the claimant leaves. What the facade
    /// answers each call and each client is tested in process (Tests/OrientDBusTests).
    @Test("busctl introspects the daemon; monitor-sensor's claim opens the sensor and prints each turn; its leaving closes it", arguments: ["C.UTF-8", "fr_FR.UTF-8"])
    func monitorSensor(locale: String) throws {
        let setup = try Setup(locale: locale)
        #expect(setup.waitForName(), "\(setup.daemon.log)")
        let introspection = setup.bus.busctl(["introspect", "net.hadess.SensorProxy", "/net/hadess/SensorProxy"]).stdout
        for member in ["ClaimAccelerometer", "AccelerometerOrientation", "PropertiesChanged"] {
            #expect(introspection.contains(member), "\(member) in:\n\(introspection)")
        }
        #expect(setup.bus.property("AccelerometerOrientation") == "s \"undefined\"", "no claim yet: the sensor was never read")
        let monitor = try setup.monitorSensor(locale: locale)
        #expect(monitor.waitForLine { $0.hasPrefix("=== Has accelerometer") } != nil, "\(monitor.lines)")
        #expect(monitor.waitForLine { $0.hasSuffix("orientation changed: normal") } != nil, "\(monitor.lines)\n\(setup.daemon.log)")
        #expect(setup.daemon.log.contains("opening the sensor"), "\(setup.daemon.log)")
        for pose in Self.poses.dropFirst() + Self.poses.prefix(1) {
            let start = monitor.lines.count
            try setup.pose(pose)
            let line = monitor.waitForLine(after: start) { $0.contains("orientation changed") }
            #expect(line == "    Accelerometer orientation changed: \(pose.busName)", "\(monitor.lines)")
        }
        #expect(!monitor.lines.contains { $0.contains("Failed") }, "\(monitor.lines)")

        // The claimant leaves the bus without releasing: NameOwnerChanged drops its claim.
        monitor.kill()
        #expect(waitFor { setup.daemon.log.contains("closed the sensor: no subscribers, no D-Bus claims") }, "\(setup.daemon.log)")
        // Turned while closed. A window, not a wait: in the second after the turn, reads are counted (50 Hz
        // polling would make 150) and must be all but none, and nothing is committed.
        let before = setup.readCalls()
        try setup.pose(Self.poses[1])
        usleep(1_000_000)
        #expect(setup.readCalls() - before < 5, "a closed sensor is not read")
        #expect(setup.bus.property("AccelerometerOrientation") == "s \"normal\"", "no reads, no commits")
    }

    @Test("polkit refusing: a claim gets iio-sensor-proxy's error and opens no sensor; the log names the client and the sensor")
    func polkitRefuses() throws {
        let setup = try Setup()
        #expect(setup.waitForName(), "\(setup.daemon.log)")
        // python-dbusmock's polkitd, activated by this call, now refuses every action.
        let mock = setup.bus.busctl([
            "call", "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.DBus.Mock",
            "SetAllowed", "as", "0",
        ])
        #expect(mock.status == 0, "\(mock.stderr)")
        let client = try setup.client()
        let answer = client.ask("claim")
        #expect(answer?.contains("org.freedesktop.DBus.Error.AccessDenied: Not Authorized: Sensor claim not allowed") == true, "\(answer ?? "none")")
        #expect(waitFor { setup.daemon.log.contains("polkit refused") }, "\(setup.daemon.log)")
        #expect(setup.daemon.log.contains("net.hadess.SensorProxy.claim-sensor"))
        usleep(300_000)
        #expect(!setup.daemon.log.contains("opening the sensor"), "a refused claim opens nothing:\n\(setup.daemon.log)")
        #expect(setup.bus.property("AccelerometerOrientation") == "s \"undefined\"", "properties are still read")
    }

    @Test("The name already taken (iio-sensor-proxy running): logged once, the socket serves, the name is taken over when freed")
    func nameTaken() throws {
        let setup = try Setup(startDaemon: false)
        let owner = try setup.client()
        #expect(owner.ask("own net.hadess.SensorProxy") == "owned")
        try setup.start(["--sampling", "always"])
        #expect(waitFor { setup.daemon.log.contains("owned by another process") }, "\(setup.daemon.log)")
        #expect(try setup.daemon.poll { $0.device == "portrait" }?.device == "portrait", "the socket serves meanwhile")
        owner.kill()
        #expect(waitFor { setup.daemon.log.contains("now serving net.hadess.SensorProxy") }, "\(setup.daemon.log)")
        #expect(waitFor { setup.bus.property("AccelerometerOrientation") == "s \"normal\"" })
        #expect(setup.daemon.log.components(separatedBy: "owned by another process").count == 2, "logged once")
    }

    @Test("The bus going away and coming back: socket clients undisturbed, the name served again")
    func busRestart() throws {
        let setup = try Setup(startDaemon: false)
        try setup.start(["--replay", Self.demoTrace, "--loop", "--speed", "4"])
        #expect(setup.waitForName())
        let subscriber = try LineClient(path: setup.daemon.socket)
        defer { subscriber.close() }
        subscriber.send("{\"op\":\"subscribe\"}\n")
        #expect(subscriber.readMessage() != nil)
        setup.bus.stop()
        #expect(waitFor { setup.daemon.log.contains("D-Bus facade:") }, "\(setup.daemon.log)")
        var events = 0
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline, subscriber.readMessage(timeout: 1)?.event != nil { events += 1 }
        #expect(events >= 2, "events keep coming on the socket while the bus is down")
        try setup.bus.start()
        #expect(setup.waitForName(timeout: 20), "\(setup.daemon.log)")
        #expect(subscriber.readMessage()?.event != nil)
        #expect(setup.daemon.process.isRunning)
    }
}
