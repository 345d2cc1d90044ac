import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon as the installed unit runs it: the unprivileged user and group `orientd` (orientd.sysusers), with
/// the permissions the udev rule grants and the D-Bus policy that lets it own the name. Needs root to switch
/// users (setpriv), as CI has.
@Suite(
    "Running as the service user", .serialized,
    .enabled(if: ServiceUser.isAvailable, Comment(rawValue: ServiceUser.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct ServiceUserTests {
    static let systemdFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Systemd").standardized.path

    static let asServiceUser = ["/usr/bin/setpriv", "--reuid=orientd", "--regid=orientd", "--init-groups"]
    static let asNobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

    /// An emulated buffered accelerometer lying in portrait (iio-sensor-proxy's scale: 256 is 1 g), with the
    /// ownership and modes the shipped udev rule gives: its own RUN command run on the emulated sysfs folder.
    private func bufferedDevice(_ testbed: UmockdevTestbed) throws {
        try testbed.describe(BufferedSensorTests.device(format: "le:s16/16>>0", timestamp: false, scale: "0.0383072"))
        // Everyone may look around the testbed, as everyone may read /sys, and reach umockdev's sockets; its
        // emulated netlink (udev monitor) sockets are bound in the testbed's top folder, as the kernel's need no file.
        try Self.shell(
            "chmod -R a+rX '\(testbed.root)' && chmod 1777 '\(testbed.root)' && find '\(testbed.root)' -type s -exec chmod a+rw {} +")
        let rule = try String(contentsOfFile: Self.systemdFolder + "/80-orientd.rules", encoding: .utf8)
        let lines = rule.split(separator: "\n").map(String.init)
        let nodeLine = try #require(lines.first { $0.hasPrefix("GROUP=") })
        #expect(nodeLine == "GROUP=\"orientd\", MODE=\"0660\"")
        let node = testbed.root + "/dev/iio:device0"
        try Self.shell("chgrp -L orientd '\(node)' && chmod 0660 \"$(readlink -f '\(node)')\"")
        let runLine = try #require(lines.first { $0.hasPrefix("RUN+=\"") })
        let command = String(runLine.dropFirst("RUN+=\"".count).dropLast())
            .replacingOccurrences(of: "\\\"", with: "\"")
            .replacingOccurrences(of: "$$", with: "$")
            .replacingOccurrences(of: "/sys$devpath", with: testbed.root + "/sys/devices/platform/accel/iio:device0")
        try Self.shell(command)
    }

    private func daemon(_ testbed: UmockdevTestbed, as user: [String], _ arguments: [String] = []) throws -> DaemonHarness {
        let folder = try DaemonHarness.makeFolder()
        chmod(folder, 0o777)
        let daemon = try DaemonHarness(
            ["--sampling", "always"] + arguments, folder: folder, wrapper: user, environment: testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    @Test("In the orientd group, with the udev rule's modes, an unprivileged daemon captures buffered")
    func bufferedAsServiceUser() throws {
        let testbed = try UmockdevTestbed()
        try bufferedDevice(testbed)
        let daemon = try daemon(testbed, as: Self.asServiceUser)
        defer { try? FileManager.default.removeItem(atPath: daemon.folder) }
        try testbed.stream(BufferedSensorTests.path, scanHex: BufferedSensorTests.words([0, -256, 0]), count: 200, rate: 50)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered", "\(daemon.log)")
        #expect(!daemon.log.contains("polling"), "\(daemon.log)")
    }

    @Test("Without the group it polls, and the log and orientd doctor name the files and the permission")
    func pollsWithoutGroup() throws {
        let testbed = try UmockdevTestbed()
        try bufferedDevice(testbed)
        let daemon = try daemon(testbed, as: Self.asNobody)
        defer { try? FileManager.default.removeItem(atPath: daemon.folder) }
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "polled", "\(daemon.log)")
        let log = daemon.log
        #expect(log.contains("polling: buffered capture needs read and write permission on /dev/iio:device0"), "\(log)")
        #expect(log.contains("write permission on /sys/devices/platform/accel/iio:device0/buffer/enable"), "\(log)")
        #expect(log.contains("scan_elements/in_accel_x_en"), "\(log)")
        #expect(log.contains("80-orientd.rules grants them to group orientd"), "\(log)")

        let doctor = try OrientdProcess.run(
            ["doctor", "--json", "--seconds", "1"], executable: Self.asNobody[0],
            environment: testbed.environment, prefix: Array(Self.asNobody.dropFirst()) + [OrientdProcess.binary])
        let report = try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any]
        let sensor = report?["sensor"] as? [String: Any]
        #expect(sensor?["capture"] as? String == "polled", "\(doctor.stdout)\(doctor.stderr)")
        #expect((sensor?["polling-reason"] as? String)?.contains("buffer/enable") == true, "\(doctor.stdout)")
    }

    @Test("The shipped D-Bus policy: only the orientd user may own the name; anyone may claim and read")
    func dbusPolicy() throws {
        let folder = try DaemonHarness.makeFolder()
        chmod(folder, 0o777)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bus = try PrivateBus(folder: folder, policyFile: Self.systemdFolder + "/orientd-dbus.conf")
        let stranger = try LineProcess(
            Self.asNobody[0], Array(Self.asNobody.dropFirst()) + [UmockdevTestbed.python, DBusFacadeTests.clientScript],
            environment: bus.environment)
        #expect(stranger.waitForLine { $0.hasPrefix("ready") } != nil)
        let denied = stranger.ask("own net.hadess.SensorProxy")
        #expect(denied?.hasPrefix("error") == true && denied?.contains("not allowed") == true, "\(denied ?? "nothing")")

        let daemon = try DaemonHarness(
            ["--dbus", "--replay", DBusFacadeTests.demoTrace, "--loop"], folder: folder, wrapper: Self.asServiceUser,
            environment: bus.environment)
        try daemon.waitUntilListening()
        #expect(waitFor { bus.property("HasAccelerometer") == "b true" }, "\(daemon.log)")
        #expect(stranger.ask("claim") == "ok", "anyone may claim")
        #expect(waitFor { daemon.log.contains("opening the sensor") }, "\(daemon.log)")
        let read = try OrientdProcess.run(
            ["--system", "get-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy",
             "HasAccelerometer"], executable: Self.asNobody[0], environment: bus.environment,
            prefix: Array(Self.asNobody.dropFirst()) + [PrivateBus.busctl])
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "b true", "anyone may read: \(read.stderr)")
        #expect(stranger.ask("release") == "ok")
    }

    private static func shell(_ command: String) throws {
        let result = try OrientdProcess.run(["-c", command], executable: "/bin/sh")
        guard result.status == 0 else { throw HarnessError("\(command): \(result.stderr)") }
    }
}

enum ServiceUser {
    static let isAvailable = getuid() == 0 && getpwnam("orientd") != nil && PrivateBus.isAvailable
    static let skipReason = "needs root and the orientd user (scripts/test-deps.sh creates it from Systemd/orientd.sysusers)"
}
