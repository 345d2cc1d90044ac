import Foundation
import OrientProtocol
import Testing

/// The real daemon on an emulated accelerometer (umockdev) that fails while it runs: the published state must
/// say so (sensor `unavailable`, device `unknown`) and recover without a restart. Removal and re-adding of the
/// whole device is `LiveSensorTests.hotplug`; a buffered device that never delivers is
/// `BufferedSensorTests.stallFallsBackToPolling`. The capture's side of each fault (a device gone mid-read, a
/// buffer that stalls mid-stream) is `LiveCaptureTests` and `LiveCaptureBufferedTests`, in process.
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

    /// Reads events until one satisfies `condition` (10 s at most).
    private func nextEvent(_ client: LineClient, where condition: (ServerMessage) -> Bool) -> ServerMessage? {
        let deadline = Date().addingTimeInterval(10)
        while let message = client.readMessage(timeout: deadline.timeIntervalSinceNow) {
            if message.event != nil, condition(message) { return message }
        }
        return nil
    }
}
