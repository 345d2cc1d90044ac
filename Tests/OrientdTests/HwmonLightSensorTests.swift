import Foundation
import Testing

/// Apple's light sensor (applesmc, iio-sensor-proxy's `hwmon-als`) on the net.hadess.SensorProxy facade: an
/// emulated platform device `applesmc.768` whose `light` reads `(l,r)`, beside an emulated accelerometer, on a
/// private system bus, read by monitor-sensor, and iio-sensor-proxy's own daemon on the same sensor.
///
/// The sensor is read every 8 s, as iio-sensor-proxy reads it, but every 0.5 s under umockdev, as iio-sensor-proxy
/// reads it there: a change is published at the read that sees it (applesmc's levels go out as read, past the light
/// filter, as iio-sensor-proxy sends them). Its lifecycle (present, claimed, changed, released with its level kept,
/// unplugged and plugged back) is SideBySideLifecycleTests' (hwmon-als); how it is found, read and scaled, untagged
/// too, HwmonLightTests' and PolledReadingCaptureTests'; the unit's change announced, SensorProxyLightPropertiesTests'.
@Suite(
    "Apple's hwmon light sensor on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct HwmonLightSensorTests {
    /// Long enough for iio-sensor-proxy 3.0's read every 8 s (it reads no faster under umockdev); orientd's come
    /// every 0.5 s here.
    static let readWait = 12.0

    typealias Setup = LightSensorTests.Setup

    /// applesmc's platform device as iio-sensor-proxy's own test emulates it, tagged, beside the setup's
    /// accelerometer; its `light` reads (128,128).
    static func setup() throws -> Setup {
        let setup = try Setup(light: false)
        setup.lightPath = try setup.testbed.addDevice(
            "applesmc.768", subsystem: "platform", attributes: ["name": "applesmc", "light": "(128,128)"],
            properties: ["IIO_SENSOR_PROXY_TYPE": "hwmon-als"])
        return setup
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
        let ours = try Self.setup()
        try ours.startOrientd()
        let orientd = try lightLines(ours)
        let theirs = try Self.setup()
        try theirs.startSensorProxy()
        let sensorProxy = try lightLines(theirs)
        #expect(orientd == [
            "=== Has ambient light sensor (value: 0.000000, unit: lux)", "    Light changed: 50.196083 (vendor)",
            "    Light changed: 100.000000 (vendor)",
        ], "\(ours.daemon.log)")
        #expect(orientd == sensorProxy)
        #expect(ours.daemon.log.contains(
            "light sensor applesmc (applesmc.768): found by IIO_SENSOR_PROXY_TYPE hwmon-als; read every 0.5 s"), "\(ours.daemon.log)")
    }
}
