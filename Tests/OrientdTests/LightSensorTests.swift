import Foundation
import Testing

/// The ambient light sensor on the net.hadess.SensorProxy facade: an emulated polled IIO light sensor (umockdev)
/// beside an emulated accelerometer, on a private system bus, read by busctl, a GIO client and iio-sensor-proxy's own
/// client monitor-sensor. Its lifecycle (present, claimed, changed, released with its level kept, unplugged and
/// plugged back) is SideBySideLifecycleTests' (iio-poll-als), beside iio-sensor-proxy's; the driver's reads
/// IIOPolledLightTests' and PolledReadingCaptureTests'; the properties and their signals to claimants only
/// SensorProxyLightPropertiesTests' and FacadeOnPrivateBusTests'.
@Suite(
    "The ambient light sensor on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct LightSensorTests {
    /// A polled light sensor as iio-sensor-proxy's udev rule tags it: 100 raw at scale 0.5 is 50 lux.
    static let lightAttributes = ["name": "als", "in_illuminance_raw": "100", "in_illuminance_scale": "0.5"]
    static let lightProperties = ["IIO_SENSOR_PROXY_TYPE": "iio-poll-als"]
    static let sensorProxyDaemon = SideBySideBench.sensorProxyDaemon

    /// One private bus, an emulated accelerometer and (unless told otherwise) light sensor, and a daemon serving them.
    final class Setup {
        let folder: String
        let bus: PrivateBus
        let testbed: UmockdevTestbed
        let accelerometerPath: String
        var lightPath: String?
        var daemon: DaemonHarness!
        private var peer: LineProcess?

        init(light: Bool = true) throws {
            folder = try DaemonHarness.makeFolder()
            bus = try PrivateBus(folder: folder)
            testbed = try UmockdevTestbed()
            accelerometerPath = try testbed.addDevice(
                "iio:device0", attributes: LiveSensorTests.portraitAttributes,
                properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
            if light { try addLight() }
        }

        var environment: [String: String] { testbed.environment.merging(bus.environment) { $1 } }

        func addLight(_ attributes: [String: String] = LightSensorTests.lightAttributes) throws {
            lightPath = try testbed.addDevice("iio:device1", attributes: attributes, properties: LightSensorTests.lightProperties)
        }

        func setLight(_ attribute: String, _ value: String) throws {
            try testbed.set(try #require(lightPath), attribute, value)
        }

        func startOrientd(_ arguments: [String] = []) throws {
            daemon = try DaemonHarness(["--dbus", "--rate", "50"] + arguments, folder: folder, environment: environment)
            try daemon.waitUntilListening()
            guard waitFor({ self.bus.property("HasAmbientLight") != nil }) else { throw HarnessError("no name:\n\(daemon.log)") }
        }

        /// iio-sensor-proxy's own daemon on the same bus and sensors, for the side-by-side case.
        func startSensorProxy() throws {
            peer = try LineProcess(LightSensorTests.sensorProxyDaemon, [], environment: environment)
            guard waitFor({ self.bus.property("HasAmbientLight") != nil }) else { throw HarnessError("iio-sensor-proxy did not start") }
        }

        /// bus_client.py, once it says it is ready.
        func client() throws -> LineProcess {
            let client = try LineProcess(UmockdevTestbed.python, [DBusFacadeTests.clientScript], environment: bus.environment)
            guard client.waitForLine({ $0.hasPrefix("ready ") }) != nil else { throw HarnessError("bus_client.py did not start") }
            return client
        }

        /// monitor-sensor as a user runs it: it claims the accelerometer, the light and the proximity sensor.
        func monitorSensor() throws -> LineProcess {
            // stdbuf: monitor-sensor prints through stdio, block-buffered into a pipe.
            try LineProcess("/usr/bin/stdbuf", ["-oL", PrivateBus.monitorSensor], environment: bus.environment)
        }

        func level() -> String? { bus.property("LightLevel") }

        /// Threads of the daemon reading the light sensor (named `orientd-light`): one while it is open, else none.
        func lightThreads() -> Int {
            let tasks = "/proc/\(daemon.process.processIdentifier)/task"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return names.filter {
                (try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8))?.hasPrefix("orientd-light") == true
            }.count
        }

        deinit {
            daemon = nil
            peer?.kill()
            bus.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The udev session's enumerations, through umockdev's own uevents, which sysfs folders may precede and outlive
    /// (the rules themselves: `UdevAdmissionTests`).
    @Test("A sensor folder that udev has not announced is left alone until its add event; one announced as removed is not found again while its folder lingers")
    func folderWithoutItsEvent() throws {
        let setup = try Setup(light: false)
        try setup.startOrientd()
        let client = try setup.client()
        #expect(client.ask("claim-light") == "ok")
        #expect(waitFor { setup.daemon.log.contains("no light sensor found; waiting for one") }, "\(setup.daemon.log)")
        // Written without its scale: opened now, it would be read 1:1.
        let path = try setup.testbed.stageDevice(
            "iio:device1", attributes: ["name": "als", "in_illuminance_raw": "100"], properties: LightSensorTests.lightProperties)
        // Another device's event wakes every watcher, which looks at the devices again.
        try setup.testbed.uevent(setup.accelerometerPath, "change")
        Thread.sleep(forTimeInterval: 1)
        #expect(setup.bus.property("HasAmbientLight") == "b false", "taken before its add event:\n\(setup.daemon.log)")
        #expect(!setup.daemon.log.contains("(iio:device1): found by"), "opened before its add event:\n\(setup.daemon.log)")
        try setup.testbed.set(path, "in_illuminance_scale", "0.5")
        try setup.testbed.uevent(path, "add")
        #expect(waitFor { setup.level() == "d 50" }, "\(setup.daemon.log)")

        // The folder stays and its reads succeed: only the event says the sensor is gone.
        try setup.testbed.uevent(path, "remove")
        #expect(waitFor { setup.bus.property("HasAmbientLight") == "b false" }, "\(setup.daemon.log)")
        try setup.testbed.set(path, "in_illuminance_raw", "60")
        try setup.testbed.uevent(setup.accelerometerPath, "change")
        Thread.sleep(forTimeInterval: 1)
        #expect(setup.bus.property("HasAmbientLight") == "b false", "found again:\n\(setup.daemon.log)")
        #expect(setup.level() == "d 50", "read again after its removal")
        #expect(setup.daemon.log.components(separatedBy: "(iio:device1): found by").count == 2, "opened once: \(setup.daemon.log)")
        try setup.testbed.uevent(path, "add")
        #expect(waitFor { setup.level() == "d 30" }, "added back\n\(setup.daemon.log)")
    }

    /// A sensor reading 50 lux, the channel to change, and the values of it that read 125 and then 5 lux: raw ×
    /// scale read every 0.8 s, and an input channel (which iio-sensor-proxy scales too) with an integration time.
    static let sideBySide: [(attributes: [String: String], channel: String, values: [String])] = [
        (lightAttributes, "in_illuminance_raw", ["250", "10"]),
        (["name": "als", "in_illuminance_input": "25", "in_illuminance_scale": "2", "in_illuminance_integration_time": "0.2"],
         "in_illuminance_input", ["62.5", "2.5"]),
    ]

    /// What monitor-sensor prints of the light sensor while `channel` takes each of `values`.
    private func lightLines(_ setup: Setup, channel: String, values: [String]) throws -> [String] {
        let monitor = try setup.monitorSensor()
        var seen = monitor.waitForLineIndex { $0.hasPrefix("    Light changed") } ?? -1
        for value in values {
            try setup.setLight(channel, value)
            seen = monitor.waitForLineIndex(after: seen + 1) { $0.hasPrefix("    Light changed") } ?? seen
        }
        return monitor.lines.filter { $0.contains("ight") }
    }

    @Test(
        "monitor-sensor prints the same light lines for orientd as for iio-sensor-proxy on the same emulated sensor",
        .enabled(if: FileManager.default.isExecutableFile(atPath: sensorProxyDaemon), "needs iio-sensor-proxy's daemon (Debian's iio-sensor-proxy)"),
        arguments: [0, 1])
    func sameAsSensorProxy(sensor: Int) throws {
        let (attributes, channel, values) = Self.sideBySide[sensor]
        let ours = try Setup(light: false)
        try ours.addLight(attributes)
        try ours.startOrientd()
        let orientd = try lightLines(ours, channel: channel, values: values)
        let theirs = try Setup(light: false)
        try theirs.addLight(attributes)
        try theirs.startSensorProxy()
        let sensorProxy = try lightLines(theirs, channel: channel, values: values)
        #expect(orientd == [
            "=== Has ambient light sensor (value: 0.000000, unit: lux)", "    Light changed: 50.000000 (lux)",
            "    Light changed: 125.000000 (lux)", "    Light changed: 5.000000 (lux)",
        ], "\(ours.daemon.log)")
        #expect(orientd == sensorProxy)
    }
}
