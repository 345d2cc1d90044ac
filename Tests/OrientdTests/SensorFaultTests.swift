import Foundation
import OrientProtocol
import Testing

/// The real daemon on an emulated accelerometer (umockdev) that fails while it runs: the published state must
/// say so (sensor `unavailable`, device `unknown`) and recover without a restart. Removal and re-adding of the
/// whole device is `LiveSensorTests.hotplug`; a buffered device that never delivers is
/// `BufferedSensorTests.stallFallsBackToPolling`.
@Suite("Sensor faults under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct SensorFaultTests {
    private func startDaemon(_ testbed: UmockdevTestbed) throws -> DaemonHarness {
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: testbed.environment)
        try daemon.waitUntilListening()
        return daemon
    }

    @Test("A raw value that reads as garbage: unavailable after repeated failures, a subscriber told; available again at the next good read, without a restart")
    func garbageReads() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice("iio:device0", attributes: LiveSensorTests.portraitAttributes)
        let daemon = try startDaemon(testbed)
        let pid = daemon.process.processIdentifier
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        let subscriber = try LineClient(path: daemon.socket)
        #expect(subscriber.request(#""op":"subscribe""#)?.device == "portrait")

        try testbed.set(path, "in_accel_x_raw", "garbage")
        let lost = nextEvent(subscriber) { $0.sensor == "unavailable" }
        #expect(lost?.device == "unknown", "\(daemon.log)")
        #expect(lost?.interface == "portrait", "the interface keeps the last known orientation")
        #expect(daemon.log.contains("reads in a row failed"))

        try testbed.set(path, "in_accel_x_raw", "-256")
        try testbed.set(path, "in_accel_y_raw", "0")
        let back = nextEvent(subscriber) { $0.sensor == "available" && $0.device == "landscape-left" }
        #expect(back != nil, "\(daemon.log)")
        #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid, "no restart")
    }

    @Test("A raw attribute that disappears and comes back: unavailable, then read again")
    func attributeRemoved() throws {
        let testbed = try UmockdevTestbed()
        let path = try testbed.addDevice("iio:device0", attributes: LiveSensorTests.portraitAttributes)
        let daemon = try startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")

        let file = testbed.root + path + "/in_accel_y_raw"
        #expect(unlink(file) == 0)
        let gone = try daemon.poll { $0.sensor == "unavailable" }
        #expect(gone?.sensor == "unavailable", "\(daemon.log)")
        #expect(gone?.device == "unknown")

        try testbed.set(path, "in_accel_y_raw", "256")
        let back = try daemon.poll { $0.sensor == "available" && $0.device == "portrait-upside-down" }
        #expect(back?.device == "portrait-upside-down", "\(daemon.log)")
    }

    @Test("A buffered device that stalls mid-stream: the polled values take over without a restart")
    func bufferedStallMidStream() throws {
        let testbed = try UmockdevTestbed()
        // The raw attributes say landscape-right; the scans say portrait until they stop.
        try testbed.describe(BufferedSensorTests.device(format: "le:s16/16>>0", timestamp: false, scale: "0.0383072", raw: (256, 0, 0)))
        let daemon = try DaemonHarness(["--sampling", "always"], environment: testbed.environment)
        try daemon.waitUntilListening()
        try testbed.stream(BufferedSensorTests.path, scanHex: BufferedSensorTests.words([0, -256, 0]), count: 100, rate: 50)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode != nil }?.sensorInfo?.mode == "buffered")

        let polled = try daemon.poll { $0.device == "landscape-right" }
        #expect(polled?.device == "landscape-right", "\(daemon.log)")
        #expect(polled?.sensor == "available")
        #expect(daemon.log.contains("delivered nothing"))
        #expect(try daemon.poll(op: "status") { $0.sensorInfo?.mode == "polled" }?.sensorInfo?.mode == "polled")
    }

    /// Reads events until one satisfies `condition` (10 s at most).
    private func nextEvent(_ client: LineClient, where condition: (ServerMessage) -> Bool) -> ServerMessage? {
        let deadline = Date().addingTimeInterval(10)
        while let message = client.readMessage(timeout: deadline.timeIntervalSinceNow) {
            if message.event != nil, condition(message) { return message }
        }
        return nil
    }
}
