import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Apple's light sensor (applesmc, iio-sensor-proxy's `hwmon-als`) on the net.hadess.SensorProxy facade: an
/// emulated platform device `applesmc.768` whose `light` reads `(l,r)`, beside an emulated accelerometer, on a
/// private system bus, read by busctl, a GIO client, `gdbus monitor` and monitor-sensor; and iio-sensor-proxy's own
/// daemon on the same sensor.
///
/// The sensor is read every 8 s, as iio-sensor-proxy reads it, but every 0.5 s under umockdev, as iio-sensor-proxy
/// reads it there: a change is published at the read that sees it (applesmc's levels go out as read, past the light
/// filter, as iio-sensor-proxy sends them).
@Suite(
    "Apple's hwmon light sensor on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct HwmonLightSensorTests {
    /// applesmc's platform device as iio-sensor-proxy's own test emulates it: tagged, with `light` on it.
    static let attributes = ["name": "applesmc", "light": "(51,10)"]
    static let tagged = ["IIO_SENSOR_PROXY_TYPE": "hwmon-als"]
    /// Long enough for iio-sensor-proxy 3.0's read every 8 s (it reads no faster under umockdev); orientd's come
    /// every 0.5 s here.
    static let readWait = 12.0

    typealias Setup = LightSensorTests.Setup

    /// A setup with the accelerometer and, unless told otherwise, applesmc's light sensor.
    static func setup(light: Bool = true, properties: [String: String] = tagged) throws -> Setup {
        let setup = try Setup(light: false)
        if light { try add(to: setup, properties: properties) }
        return setup
    }

    static func add(to setup: Setup, _ attributes: [String: String] = attributes, properties: [String: String] = tagged) throws {
        setup.lightPath = try setup.testbed.addDevice("applesmc.768", subsystem: "platform", attributes: attributes, properties: properties)
    }

    @Test("Untagged, found as applesmc's light: present, 0 in lux and closed before any claim; a claim reads it at once, 20 vendor; a change comes with PropertiesChanged carrying the unit; a release closes it and keeps the value")
    func claimChangeRelease() throws {
        let setup = try Self.setup(properties: [:])
        try setup.startOrientd()
        #expect(waitFor { setup.bus.property("HasAmbientLight") == "b true" }, "\(setup.daemon.log)")
        #expect(setup.level() == "d 0")
        #expect(setup.bus.property("LightLevelUnit") == "s \"lux\"", "lux until the first reading, as iio-sensor-proxy says")
        #expect(setup.lightThreads() == 0)
        // Only a claimant hears a sensor's PropertiesChanged, as in iio-sensor-proxy 3.9: the claiming client listens.
        let client = try setup.client(watching: true)
        let signals = client
        let claimed = Date()
        #expect(client.ask("claim-light") == "ok")
        #expect(waitFor { setup.level() == "d 20" }, "51 of 255\n\(setup.daemon.log)")
        #expect(Date().timeIntervalSince(claimed) < 4, "read at the claim")
        #expect(setup.bus.property("LightLevelUnit") == "s \"vendor\"")
        #expect(setup.lightThreads() == 1)
        #expect(setup.daemon.log.contains("light sensor applesmc (applesmc.768): found by applesmc's attribute light; read every 0.5 s"),
            "\(setup.daemon.log)")

        let start = signals.lines.count
        try setup.setLight("light", "(3,255)")
        #expect(waitFor(timeout: Self.readWait) { setup.level() == "d 100" }, "\(setup.daemon.log)")
        let changed = signals.waitForLine(after: start) { $0.contains("'LightLevel': <100.0>") }
        #expect(changed?.contains("'LightLevelUnit': <'vendor'>") == true, "the unit comes with the level: \(signals.lines)")

        #expect(client.ask("release-light") == "ok")
        #expect(waitFor { setup.daemon.log.contains("closed the light sensor: no D-Bus claims") }, "\(setup.daemon.log)")
        #expect(waitFor { setup.lightThreads() == 0 }, "no thread is left to wake")
        #expect(setup.level() == "d 100", "the last reading is kept after release")
        #expect(setup.bus.property("LightLevelUnit") == "s \"vendor\"")
    }

    /// What monitor-sensor prints of the light sensor as `light` reads (128,128), then (255,255).
    private func lightLines(_ setup: Setup) throws -> [String] {
        let monitor = try setup.monitorSensor()
        let first = monitor.waitForLineIndex { $0.hasPrefix("    Light changed") } ?? -1
        try setup.setLight("light", "(255,255)")
        _ = monitor.waitForLineIndex(after: first + 1, timeout: Self.readWait) { $0.hasPrefix("    Light changed") }
        return monitor.lines.filter { $0.contains("ight") }
    }

    @Test(
        "monitor-sensor prints the same light lines, in vendor, for orientd as for iio-sensor-proxy on the same applesmc",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: LightSensorTests.sensorProxyDaemon),
            "needs iio-sensor-proxy's daemon (Debian's iio-sensor-proxy)"))
    func sameAsSensorProxy() throws {
        let sensor = ["name": "applesmc", "light": "(128,128)"]
        let ours = try Self.setup(light: false)
        try Self.add(to: ours, sensor)
        try ours.startOrientd()
        let orientd = try lightLines(ours)
        let theirs = try Self.setup(light: false)
        try Self.add(to: theirs, sensor)
        try theirs.startSensorProxy()
        let sensorProxy = try lightLines(theirs)
        #expect(orientd == [
            "=== Has ambient light sensor (value: 0.000000, unit: lux)", "    Light changed: 50.196083 (vendor)",
            "    Light changed: 100.000000 (vendor)",
        ], "\(ours.daemon.log)")
        #expect(orientd == sensorProxy)
    }
}
