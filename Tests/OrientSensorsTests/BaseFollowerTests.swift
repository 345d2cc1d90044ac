import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Synchronization
import Testing

/// The base accelerometer paired with the display's readings by time, on a clock the test moves: each look at it
/// moves it on by `step`, so a base read (a look before, one after) takes `step`.
@Suite("Base accelerometer, paired with the display by time")
struct BaseFollowerTests {
    final class SteppingClock: Sendable {
        private let state: Mutex<(time: Double, step: Double)>
        init(at time: Double, step: Double = 0.001) { state = Mutex((time, step)) }
        func now() -> Double {
            state.withLock { state in
                defer { state.time += state.step }
                return state.time
            }
        }
        func set(_ time: Double, step: Double = 0.001) { state.withLock { $0 = (time, step) } }
    }

    static let display = AccelerometerCandidate(id: "iio:device1", path: "/sys/devices/accel/iio:device1", name: "accel_3d")
    static let base = AccelerometerCandidate(
        id: "iio:device0", path: "/sys/devices/accel/iio:device0", name: "accel_base", locationProperty: "base")
    static let scale = Vector3(0.0383072, 0.0383072, 0.0383072)

    let opener = ScriptedOpener()
    let clock = SteppingClock(at: 10)
    let reader: ScriptedAccelerometer
    let follower: BaseFollower

    init() {
        reader = opener.script(Self.base.id, name: "accel_base", scale: Self.scale, value: Vector3(256, 0, 0))
        let clock = self.clock
        follower = BaseFollower(
            readsBase: true, opener: opener, learned: LearnedGravity(), logger: RecordingLog().logger,
            now: { clock.now() }, deliver: { _ in })
        follower.open(beside: Self.display, candidates: [Self.display, Self.base])
    }

    private func pair(_ time: Double) -> Vector3? { follower.reading(pairedWith: time, failuresBeforeLost: 5) }

    @Test("A display reading taken now pairs with a base read now; in a steady stream each reading gets a read of its own")
    func steadyStream() {
        #expect(follower.isOpen)
        for cycle in 0..<3 {
            let time = 10 + Double(cycle) * 0.02
            clock.set(time)
            #expect(pair(time)?.isNear(Vector3(9.8066, 0, 0)) == true, "cycle \(cycle)")
        }
        #expect(reader.reads == 3)
    }

    @Test("A batch read late: its scans from 0.3 s ago go without a base, for one base read; a scan of now in it pairs")
    func lateBatch() {
        clock.set(10.3)
        #expect(pair(10.0) == nil && pair(10.02) == nil && pair(10.04) == nil)
        #expect(reader.reads == 1, "a read now is no nearer to any of them")
        #expect(pair(10.29) != nil, "within the window of the read just made")
        #expect(reader.reads == 1)
    }

    @Test("A base read slower than the window pairs nothing, and is not held for the next reading")
    func slowRead() {
        clock.set(10, step: 0.06)
        #expect(pair(10) == nil)
        clock.set(10.2)
        #expect(pair(10.2) != nil && reader.reads == 2)
    }

    @Test("A base read that fails pairs nothing and forgets the reading held")
    func failedRead() {
        clock.set(10)
        #expect(pair(10) != nil)
        reader.fail(SensorError("read", errno: 5, device: Self.base.id))
        clock.set(10.02)
        #expect(pair(10.02) == nil)
        reader.set(Vector3(0, 256, 0))
        clock.set(10.04)
        #expect(pair(9.98) == nil, "the reading of 10 s, held before the failure, is not given out")
        #expect(reader.reads == 3, "read anew, too far from 9.98 s")
        clock.set(10.06)
        #expect(pair(10.06)?.isNear(Vector3(0, 9.8066, 0)) == true)
    }
}
