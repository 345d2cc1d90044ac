import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP against a daemon reading an emulated sensor: the sensor is opened again with the new settings. Which
/// settings a reload applies and which wait (DaemonPartsTests), and what each does to the sensor and to status
/// (ConfiguredPartsTests, SensorServiceTests), are tested in process; here, the live sensor's own rate.
@Suite("Reloading a live sensor's settings")
struct ReloadEverySettingTests {
    @Test(
        "SIGHUP with rate added, then removed: the emulated sensor is opened again at that rate, and status shows it, then 50 again",
        .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
    func rate() throws {
        let testbed = try UmockdevTestbed()
        _ = try testbed.addDevice("iio:device0", attributes: LiveSensorTests.portraitAttributes)
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        // At debug level, so that a stop that overruns its bound is logged with swift-service-lifecycle's own trace of
        // which service it asked to stop (once, a reading service's demand stream cancelled while the reopened sensor
        // changed the demand: SensorDemandTests).
        let daemon = try DaemonHarness(
            ["--config", config, "--log-level", "debug", "--sampling", "always"], folder: folder,
            environment: testbed.environment)
        try daemon.waitUntilListening()
        for (round, (text, rate)) in [("rate = 20\n", 20.0), ("", 50.0)].enumerated() {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            #expect(waitFor { daemon.log.components(separatedBy: "configuration reloaded").count == round + 2 })
            #expect(try daemon.poll(op: "status") { $0.sensorInfo?.rate == rate }?.sensorInfo?.rate == rate, "\(daemon.log)")
        }
        daemon.expectCleanStop()
    }
}
