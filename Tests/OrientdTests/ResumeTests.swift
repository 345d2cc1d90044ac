import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Back from sleep: logind's PrepareForSleep, from python-dbusmock's `logind` template on the private bus, makes
/// every open sensor be opened again and read at once, without a restart (a sensor may come back from a suspend
/// silent, or reading a phantom 0, until it is set up again). That every kind's service does so, counts it, and
/// leaves closed what nobody wants, is tested in process (ReadingServiceTests, SensorIncidentLogTests).
@Suite(
    "Resume from sleep", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct ResumeTests {
    typealias Setup = LightSensorTests.Setup

    /// python-dbusmock's logind on the setup's bus.
    private func logind(_ setup: Setup) throws -> LineProcess {
        let mock = try LineProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--template", "logind", "--system"], environment: setup.bus.environment)
        guard waitFor({ setup.bus.busctl(["status", "org.freedesktop.login1"]).status == 0 }) else {
            throw HarnessError("python-dbusmock's logind did not start")
        }
        return mock
    }

    /// logind announcing that the machine goes to sleep (true) or has resumed (false).
    private func prepareForSleep(_ setup: Setup, _ sleeping: Bool) {
        let sent = setup.bus.busctl([
            "call", "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock", "EmitSignal",
            "sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b", sleeping ? "true" : "false",
        ])
        #expect(sent.status == 0, "\(sent.stderr)")
    }

    @Test("Claimed light and accelerometer are opened again at a resume and read at once; the new level is published")
    func reopensClaimed() throws {
        let setup = try Setup()
        let mock = try logind(setup)
        defer { mock.kill() }
        try setup.startOrientd()
        let client = try setup.client()
        #expect(client.ask("claim") == "ok")
        #expect(client.ask("claim-light") == "ok")
        #expect(waitFor { setup.level() == "d 50" }, "\(setup.daemon.log)")
        prepareForSleep(setup, true)
        #expect(waitFor { setup.daemon.log.contains("the machine goes to sleep") }, "\(setup.daemon.log)")
        // Asleep, the sensor changes; the light filter would hold a step this small back, a fresh start does not.
        try setup.setLight("in_illuminance_raw", "90")
        prepareForSleep(setup, false)
        #expect(waitFor { setup.daemon.log.contains("resumed from sleep: opening the light sensor again") }, "\(setup.daemon.log)")
        #expect(waitFor { setup.daemon.log.contains("resumed from sleep: opening the sensor again") }, "\(setup.daemon.log)")
        #expect(waitFor(timeout: 3) { setup.level() == "d 45" }, "read at once after the resume\n\(setup.daemon.log)")
        #expect(setup.daemon.log.components(separatedBy: "light sensor als (iio:device1): found by").count == 3, "opened twice")
        #expect(setup.daemon.process.isRunning, "no restart")
    }
}
