import OrientCore
import Testing

@testable import OrientSensors

/// A silent buffer: still on a hub that reports only on change, or stalled.
@Suite("A buffered accelerometer's silence")
struct BufferSilenceTests {
    @Test("Reading where the buffer last said is still: checked after 2 s, then 4, then every 8 s")
    func stillBacksOff() {
        var silence = BufferSilence()
        let upright = Vector3(0, -9.81, 0)
        #expect(!silence.isDue(after: 1.9))
        var intervals: [Double] = []
        for _ in 0..<5 {
            #expect(silence.isDue(after: silence.interval))
            intervals.append(silence.interval)
            // Within the tolerance: a hub's change sensitivity and noise.
            #expect(silence.check(last: upright, now: upright + Vector3(0.3, -0.9, 0.5)) == .still)
        }
        #expect(intervals == [2, 4, 8, 8, 8])
        silence.delivered()
        #expect(silence.interval == 2, "scans came: the next silence is checked early again")
    }

    @Test("Reading elsewhere, or nothing since the buffer opened, is a stall; the interval is kept for after it")
    func stalled() {
        var silence = BufferSilence()
        #expect(silence.check(last: Vector3(0, -9.81, 0), now: Vector3(9.81, 0, 0)) == .stalled)
        #expect(silence.check(last: Vector3(0, -9.81, 0), now: Vector3(0, -9.81, 1.2)) == .stalled, "past 1 m/s² on an axis")
        #expect(silence.check(last: nil, now: Vector3(0, -9.81, 0)) == .stalled)
        #expect(silence.interval == 2)
    }
}
