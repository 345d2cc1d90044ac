import OrientCore
import Testing

@Suite("Sampling pace")
struct SamplingPaceTests {
    private let portrait = Vector3(0, -9.81, 0)

    /// Feeds readings at the periods the pace asks for; returns the periods.
    private func run(_ pace: inout SamplingPace, from start: Double, seconds: Double, reading: (Double) -> Vector3) -> [Double] {
        var time = start
        var periods: [Double] = []
        while time < start + seconds {
            let period = pace.period(after: reading(time), at: time)
            periods.append(period)
            time += period
        }
        return periods
    }

    @Test("Full rate at first; the still rate after a second of steady readings, noise included")
    func slowsWhenStill() {
        var pace = SamplingPace(fullRate: 50, stillRate: 5)
        var noise = 0.0
        let periods = run(&pace, from: 100, seconds: 3) { _ in
            noise = noise == 0.1 ? -0.1 : 0.1  // ±0.1 m/s² of sensor noise
            return portrait + Vector3(noise, 0, noise)
        }
        let firstSecond = periods.prefix(50)
        #expect(firstSecond.allSatisfy { $0 == 1.0 / 50 })
        #expect(periods.last == 1.0 / 5)
        #expect(periods.filter { $0 == 1.0 / 5 }.count >= 9, "about 2 s at 5 Hz")
    }

    @Test("The first reading that moves returns to the full rate, and the dwell starts over")
    func wakesOnMotion() {
        var pace = SamplingPace(fullRate: 50, stillRate: 5)
        _ = run(&pace, from: 0, seconds: 2) { _ in portrait }
        #expect(pace.period(after: portrait, at: 2.0) == 0.2)
        // A 5° tilt: 0.86 m/s² away from the reference.
        let tilted = Vector3(9.81 * 0.0872, -9.81 * 0.9962, 0)
        #expect(pace.period(after: tilted, at: 2.2) == 0.02)
        #expect(pace.period(after: tilted, at: 2.22) == 0.02, "still at full rate within the dwell")
        #expect(pace.period(after: tilted, at: 3.3) == 0.2, "still again a second later")
    }

    @Test("A convertible's base that moves under a still display returns to the full rate; a base lost does too")
    func baseMoves() {
        var pace = SamplingPace(fullRate: 50, stillRate: 5)
        let onDesk = Vector3(0, 0, -9.81)
        var time = 0.0
        while time < 2 { time += pace.period(after: portrait, base: onDesk, at: time) }
        #expect(pace.period(after: portrait, base: onDesk, at: time) == 0.2, "both still: the still rate")
        // The keyboard lifted by 10° while the display is held where it was.
        let lifted = Vector3(0, 9.81 * 0.1736, -9.81 * 0.9848)
        #expect(pace.period(after: portrait, base: lifted, at: time + 0.2) == 0.02)
        time += 0.2
        while time < 5 { time += pace.period(after: portrait, base: lifted, at: time) }
        #expect(pace.period(after: portrait, base: lifted, at: time) == 0.2)
        #expect(pace.period(after: portrait, base: nil, at: time + 0.2) == 0.02, "the base's readings stopped")
    }

    @Test("A kernel hinge sensor's angle moving under a still display returns to the full rate; whole-degree jitter does not")
    func hingeMoves() {
        var pace = SamplingPace(fullRate: 50, stillRate: 5)
        var time = 0.0
        while time < 2 { time += pace.period(after: portrait, hinge: 110, at: time) }
        #expect(pace.period(after: portrait, hinge: 111, at: time) == 0.2, "a degree either way is the sensor's own step")
        #expect(pace.period(after: portrait, hinge: 115, at: time + 0.2) == 0.02, "the lid moved 5°")
        time += 0.2
        while time < 5 { time += pace.period(after: portrait, hinge: 115, at: time) }
        #expect(pace.period(after: portrait, hinge: 115, at: time) == 0.2)
        #expect(pace.period(after: portrait, hinge: nil, at: time + 0.2) == 0.02, "the angle became unknown")
    }

    @Test("Slow drift below the threshold between readings still wakes it once it adds up")
    func driftAddsUp() {
        var pace = SamplingPace(fullRate: 50, stillRate: 5)
        _ = run(&pace, from: 0, seconds: 2) { _ in portrait }
        var period = 0.0
        for step in 1...10 {
            period = pace.period(after: portrait + Vector3(0.1 * Double(step), 0, 0), at: 2 + 0.2 * Double(step))
            if period == 0.02 { break }
        }
        #expect(period == 0.02, "0.6 m/s² from the reference after 6 steps of 0.1")
    }

    @Test("A still rate above the full rate is the full rate; reset starts over at the full rate")
    func limits() {
        var pace = SamplingPace(fullRate: 10, stillRate: 50)
        #expect(pace.stillPeriod == 0.1)
        _ = run(&pace, from: 0, seconds: 2) { _ in portrait }
        pace.reset()
        #expect(pace.period(after: portrait, at: 2.5) == 0.1)
    }
}

@Suite("Sampling pace at rest")
struct SamplingPaceRestTests {
    private let portrait = Vector3(0, -9.81, 0)

    @Test("Still for 10 s: the rest rate; the first reading that moves returns to the full rate, and the rest starts over")
    func restsAfterTenSeconds() {
        var pace = SamplingPace(fullRate: 50, stillRate: 5, restRate: 2)
        var time = 0.0
        var periods: [(time: Double, period: Double)] = []
        while time < 30 {
            let period = pace.period(after: portrait, at: time)
            periods.append((time, period))
            time += period
        }
        #expect(periods.filter { $0.time >= 1 && $0.time < 10 }.allSatisfy { $0.period == 0.2 }, "the still rate up to 10 s")
        #expect(periods.filter { $0.time >= 10 }.allSatisfy { $0.period == 0.5 }, "the rest rate from 10 s")
        #expect(periods.contains { $0.time >= 10 })
        let tilted = Vector3(9.81 * 0.0872, -9.81 * 0.9962, 0)
        #expect(pace.period(after: tilted, at: time) == 0.02)
        #expect(pace.period(after: tilted, at: time + 1.5) == 0.2, "still again: the still rate, not the rest rate")
    }

    @Test("No rest rate rests at the still rate; one above the still rate is the still rate")
    func limits() {
        var without = SamplingPace(fullRate: 50, stillRate: 5)
        var above = SamplingPace(fullRate: 50, stillRate: 5, restRate: 20)
        #expect(without.restPeriod == 0.2 && above.restPeriod == 0.2)
        _ = without.period(after: portrait, at: 0)
        _ = above.period(after: portrait, at: 0)
        #expect(without.period(after: portrait, at: 20) == 0.2)
        #expect(above.period(after: portrait, at: 20) == 0.2)
    }
}
