import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// HID sensor hub devices in umockdev's text form, each with its trigger (`als-dev1`, `magn_3d-dev2`); the device
/// node is a PTY the test writes scans into, as the kernel's buffer would deliver them.
struct HIDSensor {
    var number: Int
    let name: String
    let channel: String
    /// Attributes besides the channel's scan element (`in_intensity_scale=0.1`).
    let attributes: [String]
    /// IIO_SENSOR_PROXY_TYPE, as iio-sensor-proxy's udev rule sets it; nil for an untagged device.
    let tag: String?

    static let light = HIDSensor(
        number: 1, name: "als", channel: "intensity_both",
        attributes: ["in_intensity_both_raw=0", "in_intensity_scale=0.1", "in_intensity_offset=0", "in_intensity_sampling_frequency=0"],
        tag: "iio-buffer-als")
    static let compass = HIDSensor(
        number: 2, name: "magn_3d", channel: "rot_from_north_magnetic_tilt_comp",
        attributes: ["in_rot_from_north_magnetic_tilt_comp_raw=0", "in_rot_scale=0.1"], tag: "iio-buffer-compass")

    var id: String { "iio:device\(number)" }
    var node: String { "/dev/\(id)" }
    var sysfsPath: String { "/sys/devices/platform/HID-SENSOR-\(number)/\(id)" }

    var text: String {
        var lines = ["P: \(sysfsPath.dropFirst(4))", "N: \(id)", "E: SUBSYSTEM=iio", "E: DEVNAME=\(node)"]
        if let tag { lines.append("E: IIO_SENSOR_PROXY_TYPE=\(tag)") }
        lines += ["A: name=\(name)"] + attributes.map { "A: \($0)" }
        lines += [
            "A: buffer/enable=0", "A: buffer/length=0", "A: trigger/current_trigger=",
            "A: scan_elements/in_\(channel)_en=0", "A: scan_elements/in_\(channel)_index=0",
            "A: scan_elements/in_\(channel)_type=le:s32/32>>0",
        ]
        return lines.map { $0.hasPrefix("A: ") ? $0 + "\\n" : $0 }.joined(separator: "\n") + "\n"
    }

    var trigger: String { "P: /devices/trigger\(number)\nE: SUBSYSTEM=iio\nA: name=\(name)-dev\(number)\\n\n" }

    /// One scan: the channel's raw value as a little-endian 32-bit word, in hex.
    static func scan(_ raw: Int32) -> String {
        withUnsafeBytes(of: raw.littleEndian) { $0.map { String(format: "%02x", $0) }.joined() }
    }

    /// Adds the trigger (unless told not to), then the device, in the order the kernel's HID drivers register them:
    /// iio-sensor-proxy looks for the trigger when the device appears.
    func add(to testbed: UmockdevTestbed, withTrigger: Bool = true) throws {
        if withTrigger { try testbed.describe(trigger) }
        try testbed.describe(text)
    }

    /// The same sensor plugged back: as a new device, as the kernel numbers it (umockdev cannot reuse a removed
    /// device's node).
    var replugged: HIDSensor {
        var again = self
        again.number += 10
        return again
    }

    /// The sensor reads `raw` now, as a hub's sensor does: its raw attribute (which the kernel's driver answers with
    /// a GET_REPORT of the current value) says so too. Without it, a buffer left silent for 2 s on a loaded machine
    /// read as stalled, its raw attribute elsewhere (still 0), and the daemon rightly read 0 from it.
    func reads(_ raw: Int32, in testbed: UmockdevTestbed) {
        try? testbed.set(sysfsPath, "in_\(channel)_raw", "\(raw)")
    }

    /// Writes a scan of `raw` every 0.25 s until `done` holds (10 s at most).
    @discardableResult
    func feed(_ testbed: UmockdevTestbed, _ raw: Int32, until done: () -> Bool) -> Bool {
        reads(raw, in: testbed)
        return waitFor(timeout: 10, interval: 0.25) {
            try? testbed.stream(node, scanHex: Self.scan(raw), count: 1, rate: 10)
            return done()
        }
    }

    /// Sends the claim `command` (`claim-light`) through `client` and streams a scan of `raw` every 0.25 s until it is
    /// answered; returns the answer. A claim is answered once the sensor has given a reading, as iio-sensor-proxy
    /// 3.6 and later answer it, and a buffer gives one only when data comes.
    func claim(_ command: String, by client: LineProcess, _ testbed: UmockdevTestbed, feeding raw: Int32) -> String? {
        let start = client.lines.count
        reads(raw, in: testbed)
        client.send(command)
        var answer: String?
        _ = waitFor(timeout: 10, interval: 0.25) {
            try? testbed.stream(node, scanHex: Self.scan(raw), count: 1, rate: 10)
            answer = client.waitForLine(after: start, timeout: 0.01) { !$0.hasPrefix("signal ") }
            return answer != nil
        }
        return answer
    }

    func attribute(_ testbed: UmockdevTestbed, _ name: String) -> String? {
        (try? String(contentsOfFile: testbed.root + sysfsPath + "/" + name, encoding: .utf8))?
            .trimmingCharacters(in: CharacterSet(charactersIn: "\n\0 "))
    }
}

/// The buffered HID light sensor and compass under a real daemon: emulated HID sensor hub devices (umockdev) beside
/// an emulated accelerometer, on a private bus, for what libiio alone shows. What the driver and its capture decide
/// (a silent buffer, a stall, bad files, a failing node, a doubted 0) is BufferedReadingCaptureTests' (in process);
/// each sensor's lifecycle beside iio-sensor-proxy's (claimed, changed, released, claimants leaving, unplugged and
/// plugged back, claimed before it exists) is SideBySideLifecycleTests'.
@Suite(
    "Buffered HID light sensor and compass on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct HIDSensorTests {
    typealias Setup = LightSensorTests.Setup

    static func compass(_ setup: Setup) -> String? {
        setup.bus.property("CompassHeading", path: "/net/hadess/SensorProxy/Compass", interface: "net.hadess.SensorProxy.Compass")
    }

    /// What a claim, a change and a release show a client, and the values kept, is SideBySideLifecycleTests' (its
    /// HID light and compass); the scaling and the silences are BufferedReadingCaptureTests'. Here, what libiio's open
    /// and close write to the device.
    @Test("Light: opened as iio-sensor-proxy opens it, read through the buffer; its buffer disabled on release")
    func lightOpenedAndClosed() throws {
        let setup = try Setup(light: false)
        let light = HIDSensor.light
        try light.add(to: setup.testbed)
        try setup.startOrientd()
        #expect(waitFor { setup.bus.property("HasAmbientLight") == "b true" }, "\(setup.daemon.log)")
        let client = try setup.client()
        #expect(light.claim("claim-light", by: client, setup.testbed, feeding: 500) == "ok")
        #expect(setup.level() == "d 50", "500 raw at scale 0.1, read before the claim was answered\n\(setup.daemon.log)")
        #expect(setup.daemon.log.contains("light sensor als (iio:device1): found by IIO_SENSOR_PROXY_TYPE iio-buffer-als; read every 0.7 s"))
        #expect(light.attribute(setup.testbed, "buffer/enable") == "1")
        #expect(light.attribute(setup.testbed, "buffer/length") == "128")
        #expect(light.attribute(setup.testbed, "scan_elements/in_intensity_both_en") == "1")
        #expect(light.attribute(setup.testbed, "trigger/current_trigger") == "als-dev1")
        #expect(light.attribute(setup.testbed, "in_intensity_sampling_frequency").flatMap(Double.init) == 10, "raised from 0 to 10")
        #expect(light.feed(setup.testbed, 1250) { setup.level() == "d 125" }, "\(setup.daemon.log)")
        #expect(client.ask("release-light") == "ok")
        #expect(waitFor { light.attribute(setup.testbed, "buffer/enable") == "0" }, "the buffer is disabled on close")
    }

    @Test("libiio's part: a missing trigger is logged naming its file, a node failing mid-read naming the node; the accelerometer is still served")
    func libiioFaults() throws {
        let setup = try Setup(light: false)
        let light = HIDSensor.light
        try light.add(to: setup.testbed)
        try HIDSensor.compass.add(to: setup.testbed, withTrigger: false)
        try setup.startOrientd()
        let client = try setup.client()
        #expect(client.ask("claim") == "ok")
        // The compass gives no reading: its claim is answered at the bound (3 s), with none.
        #expect(client.ask("claim-compass") == "ok")
        #expect(setup.daemon.log.contains("the compass gave no reading within 3 s of a claim"), "\(setup.daemon.log)")
        let triggerFile = "\(HIDSensor.compass.sysfsPath)/trigger/current_trigger cannot be set: no IIO trigger named magn_3d-dev2"
        #expect(waitFor { setup.daemon.log.contains(triggerFile) }, "\(setup.daemon.log)")
        #expect(light.claim("claim-light", by: client, setup.testbed, feeding: 420) == "ok")
        #expect(setup.level() == "d 42", "\(setup.daemon.log)")
        // The node ends under the reader (libiio reports EIO) before udev says the device is gone.
        try setup.testbed.hangUp(light.node)
        let problem = "light sensor iio:device1: /dev/iio:device1: read failed: Input/output error"
        #expect(waitFor { setup.daemon.log.contains(problem) }, "\(setup.daemon.log)")
        try setup.testbed.set(setup.accelerometerPath, "in_accel_x_raw", "256")
        try setup.testbed.set(setup.accelerometerPath, "in_accel_y_raw", "0")
        #expect(waitFor { setup.bus.property("AccelerometerOrientation") == "s \"left-up\"" }, "\(setup.daemon.log)")
    }

    /// Whether two lines agree word by word, numbers within a millionth: iio-sensor-proxy reads a buffered
    /// channel's scale as a 32-bit float (50.000001 where orientd reads 50).
    static func agree(_ a: String, _ b: String) -> Bool {
        let (left, right) = (a.split(separator: " "), b.split(separator: " "))
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { x, y in
            guard let u = Double(x), let v = Double(y) else { return x == y }
            return abs(u - v) <= 1e-6 * max(1, abs(u), abs(v))
        }
    }

    static func agree(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { agree($0, $1) }
    }
}

/// The HID light sensor read by the daemon as the installed unit runs it: user `orientd`, with the device node's
/// group and mode and the capture files' grants that the shipped udev rule gives. Needs root to switch users.
@Suite(
    "A HID light sensor as the service user", .serialized,
    .enabled(if: ServiceUser.isAvailable, Comment(rawValue: ServiceUser.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct HIDSensorServiceUserTests {
    private static func shell(_ command: String) throws {
        let result = try OrientdProcess.run(["-c", command], executable: "/bin/sh")
        guard result.status == 0 else { throw HarnessError("\(command): \(result.stderr)") }
    }

    @Test("With the udev rule's grants, user orientd opens the light sensor's buffer and reads it")
    func lightAsServiceUser() throws {
        let folder = try DaemonHarness.makeFolder()
        chmod(folder, 0o777)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bus = try PrivateBus(folder: folder)
        let testbed = try UmockdevTestbed()
        _ = try testbed.addDevice("iio:device0", attributes: LiveSensorTests.portraitAttributes)
        let light = HIDSensor.light
        try light.add(to: testbed)
        // As ServiceUserTests does for an accelerometer: /sys readable by all, umockdev's sockets reachable, then
        // the rule's node group and mode and its RUN command on the emulated device.
        try Self.shell(
            "chmod -R a+rX '\(testbed.root)' && chmod 1777 '\(testbed.root)' && find '\(testbed.root)' -type s -exec chmod a+rw {} +")
        let lines = try String(contentsOfFile: ServiceUserTests.systemdFolder + "/80-orientd.rules", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines.contains("TEST==\"scan_elements/in_intensity_both_en\", GOTO=\"orientd_sensor\""))
        let node = testbed.root + light.node
        try Self.shell("chgrp -L orientd '\(node)' && chmod 0660 \"$(readlink -f '\(node)')\"")
        let runLine = try #require(lines.first { $0.hasPrefix("RUN+=\"") })
        try Self.shell(
            String(runLine.dropFirst("RUN+=\"".count).dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                .replacingOccurrences(of: "$$", with: "$").replacingOccurrences(of: "/sys$devpath", with: testbed.root + light.sysfsPath))

        let daemon = try DaemonHarness(
            ["--dbus", "--rate", "50"], folder: folder, wrapper: ServiceUserTests.asServiceUser,
            environment: testbed.environment.merging(bus.environment) { $1 })
        try daemon.waitUntilListening()
        #expect(waitFor { bus.property("HasAmbientLight") == "b true" }, "\(daemon.log)")
        let client = try LineProcess(UmockdevTestbed.python, [DBusFacadeTests.clientScript], environment: bus.environment)
        #expect(client.waitForLine { $0.hasPrefix("ready") } != nil)
        #expect(light.claim("claim-light", by: client, testbed, feeding: 500) == "ok")
        #expect(bus.property("LightLevel") == "d 50", "\(daemon.log)")
        #expect(light.attribute(testbed, "buffer/enable") == "1")
        client.kill()
    }
}
