import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `AccelerometerTilt` on the net.hadess.SensorProxy facade, read by busctl and watched by `gdbus monitor` while a
/// GIO client claims the emulated accelerometer and the test tilts it. iio-sensor-proxy 3.0 (Debian's) has no such
/// property, so the values are checked against the rules of later versions' `tilt_calc` (see AccelerometerTilt).
@Suite(
    "AccelerometerTilt on a private bus", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct TiltPropertyTests {
    typealias Setup = LightSensorTests.Setup

    /// Sets the emulated accelerometer's raw y and z (x stays 0): 256 is 1 g at the fixture's scale.
    private func hold(_ setup: Setup, y: Int, z: Int) throws {
        try setup.testbed.set(setup.accelerometerPath, "in_accel_y_raw", "\(y)")
        try setup.testbed.set(setup.accelerometerPath, "in_accel_z_raw", "\(z)")
    }

    private func tilt(_ setup: Setup) -> String? { setup.bus.property("AccelerometerTilt") }

    @Test("undefined until claimed; then each tilt as iio-sensor-proxy names it, announced with PropertiesChanged; kept after a release")
    func tilting() throws {
        let setup = try Setup(light: false)
        try setup.startOrientd()
        #expect(tilt(setup) == "s \"undefined\"", "no reading yet")
        // Only a claimant hears a sensor's PropertiesChanged, as in iio-sensor-proxy 3.9: the claiming client listens.
        let client = try setup.client(watching: true)
        let signals = client
        #expect(client.ask("claim") == "ok")
        #expect(waitFor { tilt(setup) == "s \"vertical\"" }, "upright: \(setup.daemon.log)")
        // Leaning back 45°: z below 0 is iio-sensor-proxy's tilted-down.
        var start = signals.lines.count
        try hold(setup, y: -181, z: -181)
        #expect(waitFor { tilt(setup) == "s \"tilted-down\"" }, "\(setup.daemon.log)")
        #expect(signals.waitForLine(after: start) { $0.contains("'AccelerometerTilt': <'tilted-down'>") } != nil, "\(signals.lines)")
        try hold(setup, y: -181, z: 181)
        #expect(waitFor { tilt(setup) == "s \"tilted-up\"" })
        // 80° from vertical is past iio-sensor-proxy's 70°.
        try hold(setup, y: -44, z: 252)
        #expect(waitFor { tilt(setup) == "s \"face-up\"" })
        try hold(setup, y: 0, z: -256)
        #expect(waitFor { tilt(setup) == "s \"face-down\"" })
        start = signals.lines.count
        #expect(client.ask("release") == "ok")
        #expect(waitFor { setup.daemon.log.contains("closed the sensor: no subscribers, no D-Bus claims") }, "\(setup.daemon.log)")
        try hold(setup, y: -256, z: 0)
        usleep(300_000)
        #expect(tilt(setup) == "s \"face-down\"", "the last value is kept after a release, as iio-sensor-proxy keeps it")
    }

    @Test("A tilt alone wakes no socket subscriber; unplugging the accelerometer makes it undefined")
    func notOnTheSocket() throws {
        let setup = try Setup(light: false)
        try setup.startOrientd()
        let subscriber = try LineClient(path: setup.daemon.socket)
        defer { subscriber.close() }
        #expect(subscriber.request(#""op":"subscribe""#)?.ok == true)
        #expect(waitFor { tilt(setup) == "s \"vertical\"" }, "the subscriber opened the sensor: \(setup.daemon.log)")
        // Drain the events of the sensor opening (its first orientation).
        while subscriber.readMessage(timeout: 0.5) != nil {}
        try hold(setup, y: -181, z: -181)
        #expect(waitFor { tilt(setup) == "s \"tilted-down\"" })
        try hold(setup, y: -240, z: 100)
        #expect(waitFor { tilt(setup) == "s \"tilted-up\"" })
        // Still portrait throughout: the tilt is the only thing that changed, and the socket hears nothing of it.
        #expect(subscriber.readLine(timeout: 0.5) == nil, "nothing is sent to a subscriber for a tilt")
        try setup.testbed.remove(setup.accelerometerPath)
        #expect(waitFor { setup.bus.property("HasAccelerometer") == "b false" }, "\(setup.daemon.log)")
        #expect(tilt(setup) == "s \"undefined\"")
    }
}
