import OrientSampleSource
@testable import OrientSensors
import Testing

@Suite("Buffered timestamps on the monotonic clock")
struct SampleTimeBaseTests {
    @Test("A wall-clock stamp becomes monotonic time: the kernel's interval kept, the wall clock's offset gone")
    func knownClock() {
        var base = SampleTimeBase(clock: .realtime)
        let wallOffset = 1_700_000_000.0
        // Scans stamped 20 ms apart, each read 3 ms after it was stamped.
        let first = base.monotonic(stamp: wallOffset + 100.000, now: 100.003, clockNow: wallOffset + 100.003)
        let second = base.monotonic(stamp: wallOffset + 100.020, now: 100.023, clockNow: wallOffset + 100.023)
        #expect(abs(first - 100.000) < 1e-6)
        #expect(abs((second - first) - 0.020) < 1e-6)
    }

    @Test("The wall clock stepped back an hour (NTP): time keeps increasing")
    func wallClockStep() {
        var base = SampleTimeBase(clock: .realtime)
        let before = base.monotonic(stamp: 5000.00, now: 10.00, clockNow: 5000.00)
        // The step came between the stamp and the read: the stamp is in the old wall time, the clock in the new.
        let during = base.monotonic(stamp: 5000.02, now: 10.02, clockNow: 1400.02)
        let after = base.monotonic(stamp: 1400.04, now: 10.04, clockNow: 1400.04)
        #expect(during > before && during <= 10.02, "not an hour ahead")
        #expect(after > during)
        #expect(abs(after - 10.04) < 1e-6)
    }

    @Test("An unknown clock is anchored at the first read; stamps that go back are re-anchored, never backwards")
    func unknownClock() {
        var base = SampleTimeBase(clock: nil)
        #expect(base.monotonic(stamp: 1.0, now: 500.0, clockNow: nil) == 500.0)
        #expect(abs(base.monotonic(stamp: 1.5, now: 500.6, clockNow: nil) - 500.5) < 1e-9, "the interval is the stamps'")
        let reset = base.monotonic(stamp: 0.2, now: 501.0, clockNow: nil)
        #expect(reset == 501.0, "the device's counter restarted")
        #expect(abs(base.monotonic(stamp: 0.3, now: 501.2, clockNow: nil) - 501.1) < 1e-9)
    }

    @Test("Equal stamps still give increasing times, and nothing lands in the future")
    func equalAndFuture() {
        var base = SampleTimeBase(clock: .monotonic)
        let a = base.monotonic(stamp: 7.0, now: 7.01, clockNow: 7.01)
        let b = base.monotonic(stamp: 7.0, now: 7.02, clockNow: 7.02)
        #expect(b > a)
        #expect(base.monotonic(stamp: 9.0, now: 7.03, clockNow: 7.03) <= 7.03)
    }

    @Test("current_timestamp_clock's names, as the kernel writes them")
    func clockNames() {
        #expect(TimestampClock(attribute: "realtime\n") == .realtime)
        #expect(TimestampClock(attribute: "monotonic_raw\n") == .monotonicRaw)
        #expect(TimestampClock(attribute: "boottime") == .boottime)
        #expect(TimestampClock(attribute: "sundial\n") == nil)
        #expect(TimestampClock(attribute: "") == nil)
    }
}
