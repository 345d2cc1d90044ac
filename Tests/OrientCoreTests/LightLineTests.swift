@testable import OrientCore
import Testing

/// The line the light filter draws through its readings for drifts and trends.
@Suite("Light line")
struct LightLineTests {
    /// A room rising 2 lux a second from 100, read every `interval` for `count` readings from time 0.
    private func ramp(count: Int, every interval: Double) -> [LightSample] {
        (0..<count).map { LightSample(level: 100 + 2 * Double($0) * interval, time: Double($0) * interval) }
    }

    @Test("Through a clean ramp, the line puts the level where the ramp is, beyond its last reading too, with no error")
    func cleanRamp() {
        let samples = ramp(count: 9, every: 0.8)
        let (level, error) = LightLine.level(through: samples, at: 8)
        #expect(abs(level - 116) < 1e-9)
        #expect(error == 0)
    }

    @Test("A reading thrown 50 % off, or a shadow of two readings, moves the line little (a least-squares line, 6 lux for the one reading)")
    func robust() {
        var samples = ramp(count: 9, every: 0.8)
        samples[4].level *= 1.5
        #expect(abs(LightLine.level(through: samples, at: 6.4).level - 112.8) < 0.5)
        samples = ramp(count: 9, every: 0.8)
        samples[7].level *= 0.6
        samples[8].level *= 0.6
        #expect(abs(LightLine.level(through: samples, at: 6.4).level - 112.8) < 1.5)
    }

    @Test("Read ten times a second (70 readings), the slopes come from runs of readings and the line still follows the ramp")
    func readOften() {
        let samples = ramp(count: 70, every: 0.1)
        #expect(abs(LightLine.level(through: samples, at: 7).level - 114) < 1e-9)
    }

    @Test("A steady room's scatter sets the error: about twice its standard deviation over the square root of the count")
    func error() {
        // Readings 98, 100 and 102 in turn: the median distance from the line is 2, a standard deviation of 2.97; over
        // 16 readings the error is twice that over 4.
        let samples = (0..<16).map { LightSample(level: [98, 100, 102][$0 % 3], time: Double($0) * 0.8) }
        let (level, error) = LightLine.level(through: samples, at: 12)
        #expect(abs(level - 100) <= 1, "\(level)")
        #expect(abs(error - 2 * 1.4826 * 2 / 4) < 0.1, "\(error)")
    }

    @Test("The middle of values is one of them: the lower of the two middle ones for an even count")
    func middle() {
        #expect([3.0, 1, 2].middle == 2)
        #expect([4.0, 1, 3, 2].middle == 2)
        #expect([7.0].middle == 7)
    }
}
