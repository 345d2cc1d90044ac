import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Testing

/// A kernel hinge sensor paired with the display's readings by time, on the stepping clock of
/// ``BaseFollowerTests``, its value a folder's file the test changes between reads.
@Suite("Hinge sensor, paired with the display by time")
struct HingeFollowerTests {
    let directory: FolderDeviceDirectory
    let clock = BaseFollowerTests.SteppingClock(at: 10)
    let follower: HingeFollower

    init() throws {
        directory = try FolderDeviceDirectory()
        let device = try directory.add("iio:device5", name: "cros-ec-lid-angle", attributes: ["in_angl_raw": "100"])
        let clock = self.clock
        follower = HingeFollower(readsHinge: true, logger: RecordingLog().logger, now: { clock.now() }, deliver: { _ in })
        follower.open(from: [device])
    }

    private func pair(_ time: Double) -> KernelHingeAngle? { follower.angle(pairedWith: time, failuresBeforeLost: 5) }

    private func set(_ raw: String) throws { try directory.set("in_angl_raw", of: "iio:device5", to: raw) }

    @Test("Read at most once a period: within it the angle held is paired, after it the sensor is read anew")
    func oncePerPeriod() throws {
        #expect(follower.isOpen)
        clock.set(10)
        #expect(pair(10) == .degrees(100))
        try set("150")
        clock.set(10.05)
        #expect(pair(10.05) == .degrees(100), "half a period on: the angle held, no read")
        clock.set(10.12)
        #expect(pair(10.12) == .degrees(150), "a period on: read anew")
    }

    @Test("A batch read late: scans further than two periods from the read pair unknown, and cost one read")
    func lateBatch() throws {
        clock.set(11)
        // Scans stamped 0.5 s, 0.4 s ... before their read, then one taken now.
        #expect(pair(10.5) == .unknown, "read now, 0.5 s after the scan")
        try set("250")
        #expect(pair(10.6) == .unknown, "the angle held is newer: no read again")
        #expect(pair(10.9) == .degrees(100), "within two periods of the read")
        #expect(pair(11.0) == .degrees(100))
    }

    @Test("Not a hinge sensor, or none: nothing opened, and samples carry no angle")
    func none() throws {
        let accelerometer = try directory.add("iio:device0", name: "accel_3d", attributes: ["in_accel_x_raw": "0"])
        let other = HingeFollower(readsHinge: true, logger: RecordingLog().logger, deliver: { _ in })
        #expect(!other.open(from: [accelerometer]))
        #expect(other.angle(pairedWith: 1, failuresBeforeLost: 5) == nil)
        let refused = HingeFollower(readsHinge: false, logger: RecordingLog().logger, deliver: { _ in })
        #expect(!refused.open(from: directory.hingeSensors()))
    }
}
