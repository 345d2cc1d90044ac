import Foundation
import Testing

/// iio-sensor-proxy's fake light sensor and compass (`FAKE_LIGHT_SENSOR`, `FAKE_COMPASS`), standing in for hardware a
/// desktop developer lacks: found on the input device "Power Button", counting up every second.
@Suite(
    "Fake light sensor and compass", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct FakeSensorTests {
    static let compass = (path: "/net/hadess/SensorProxy/Compass", interface: "net.hadess.SensorProxy.Compass")

    /// A private bus, an emulated accelerometer and a power button, and the daemon with `environment` added.
    private func start(_ environment: [String: String]) throws -> (LightSensorTests.Setup, LineProcess) {
        let setup = try LightSensorTests.Setup(light: false)
        _ = try setup.testbed.addDevice("event3", subsystem: "input", attributes: [:], properties: ["NAME": "\"Power Button\""])
        setup.daemon = try DaemonHarness(
            ["--dbus", "--rate", "50"], folder: setup.folder, environment: setup.environment.merging(environment) { $1 })
        try setup.daemon.waitUntilListening()
        #expect(waitFor { setup.bus.property("HasAmbientLight") != nil }, "\(setup.daemon.log)")
        return (setup, try setup.client())
    }

    @Test("FAKE_LIGHT_SENSOR: a light sensor that reads 0 lux, then one more every second, and goes on counting after a release")
    func light() throws {
        let (setup, client) = try start(["FAKE_LIGHT_SENSOR": "1"])
        #expect(setup.bus.property("HasAmbientLight") == "b true", "\(setup.daemon.log)")
        #expect(setup.bus.property("HasCompass", path: Self.compass.path, interface: Self.compass.interface) == "b false")
        #expect(client.ask("claim-light") == "ok")
        #expect(waitFor { setup.level() == "d 1" }, "0 at the first read, 1 a second later: \(setup.daemon.log)")
        #expect(setup.bus.property("LightLevelUnit") == "s \"lux\"")
        #expect(client.ask("release-light") == "ok")
        #expect(waitFor { setup.lightThreads() == 0 }, "closed")
        let kept = setup.level()
        #expect(client.ask("claim-light") == "ok")
        #expect(waitFor { setup.level() != kept }, "read again")
        let number = setup.level().flatMap { Double($0.dropFirst(2)) } ?? 0
        #expect(number >= 2, "the count went on: \(String(describing: setup.level()))")
        #expect(setup.daemon.log.contains("found by FAKE_LIGHT_SENSOR and the input device \"Power Button\""), "\(setup.daemon.log)")
    }

    @Test("FAKE_COMPASS: a compass heading 10°, then 10° more every second")
    func compass() throws {
        let (setup, client) = try start(["FAKE_COMPASS": "1"])
        let heading = { setup.bus.property("CompassHeading", path: Self.compass.path, interface: Self.compass.interface) }
        #expect(setup.bus.property("HasCompass", path: Self.compass.path, interface: Self.compass.interface) == "b true")
        #expect(setup.bus.property("HasAmbientLight") == "b false", "a light sensor only with its own variable")
        #expect(client.ask("claim-compass") == "ok")
        #expect(waitFor { heading() == "d 10" }, "\(setup.daemon.log)")
        #expect(waitFor { heading() == "d 20" })
    }

    @Test("Without the variables, the power button is no sensor")
    func notWithout() throws {
        let (setup, _) = try start([:])
        #expect(setup.bus.property("HasAmbientLight") == "b false")
        #expect(setup.bus.property("HasCompass", path: Self.compass.path, interface: Self.compass.interface) == "b false")
    }
}
