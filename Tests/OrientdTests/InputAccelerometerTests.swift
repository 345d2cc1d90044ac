import Foundation
import Testing

/// An accelerometer that is an evdev input device (`ID_INPUT_ACCELEROMETER`, as the lis3lv02d of older laptops is),
/// read as iio-sensor-proxy 3.9 reads its `input-accel`: the axes asked with EVIOCGABS, 256 units to 1 g. The device
/// is emulated by umockdev, its EVIOCGABS answered by the testbed.
@Suite("Input (evdev) accelerometers under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct InputAccelerometerTests {
    @Test("Found by ID_INPUT_ACCELEROMETER and read through EVIOCGABS: portrait, then landscape as its axes change")
    func readsAxes() throws {
        let testbed = try UmockdevTestbed()
        try testbed.addInputAccelerometer(axes: (0, -256, 0), properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        let daemon = try LiveSensorTests.startDaemon(testbed)
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(daemon.log.contains("using event9 (/dev/input/event9, an input device)"), "\(daemon.log)")
        try testbed.setInputAccelerometer((256, 0, 0))
        #expect(try daemon.poll { $0.device == "landscape-right" }?.device == "landscape-right", "\(daemon.log)")
        let status = try daemon.poll(op: "status") { $0.sensorInfo?.id != nil }
        #expect(status?.sensorInfo?.id == "event9")
        #expect(status?.sensorInfo?.mode == "polled")
        #expect(status?.sensorInfo?.mountMatrixSource == "udev ACCEL_MOUNT_MATRIX")
        #expect(!daemon.log.contains("treating them as 1 g"), "256 units are 1 g: nothing to learn")
    }

    @Test("Bad input: an input accelerometer without the axes is no sensor, said once naming its node, tried again quietly")
    func withoutAxes() throws {
        let testbed = try UmockdevTestbed()
        try testbed.addInputAccelerometer(axes: nil)
        let daemon = try LiveSensorTests.startDaemon(testbed)
        let problem = "cannot read event9: event9: EVIOCGABS(ABS_X) /dev/input/event9 failed"
        #expect(waitFor(timeout: 10) { daemon.log.contains(problem) }, "\(daemon.log)")
        usleep(2_500_000)
        // Once by the capture, once by the engine that hears of it: not at each try, once a second.
        #expect(daemon.log.components(separatedBy: problem).count == 3, "\(daemon.log)")
        #expect(!daemon.log.contains("using event9"), "\(daemon.log)")
        let state = try daemon.poll { $0.device == "unknown" }
        #expect(state?.device == "unknown")
    }
}
