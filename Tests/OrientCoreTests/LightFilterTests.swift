import OrientCore
import Testing

/// The light filter on hand-written readings: what brightness hunting looks like, and what must still get through.
@Suite("Light filter")
struct LightFilterTests {
    /// Feeds `readings` (time, level) and returns each published level with its time.
    private func published(_ readings: [(Double, Double)], threshold: Double = 0.2) -> [(Double, Double)] {
        var filter = LightFilter(threshold: threshold)
        return readings.compactMap { time, level in filter.take(level, at: time).publish.map { (time, $0) } }
    }

    /// A reading every 0.8 s, as iio-sensor-proxy polls, starting at 0.
    private func polled(_ levels: [Double]) -> [(Double, Double)] {
        levels.enumerated().map { (Double($0.offset) * 0.8, $0.element) }
    }

    @Test("The first reading is published at once")
    func first() {
        var filter = LightFilter(threshold: 0.2)
        #expect(filter.take(300, at: 10) == LightDecision(publish: 300))
        #expect(filter.published == 300)
    }

    @Test("Opened again, a first 0 where it read light before is read again before it is published; a second 0 is")
    func phantomZero() {
        for threshold in [0.2, 0] {
            var filter = LightFilter(threshold: threshold)
            #expect(filter.take(300, at: 0) == LightDecision(publish: 300))
            filter.reset()
            #expect(filter.take(0, at: 10) == LightDecision(readAgainAt: 10 + LightFilter.zeroRecheck), "a phantom 0 as it wakes")
            #expect(filter.take(280, at: 10.2) == LightDecision(publish: 280), "the light read again")
            filter.reset()
            #expect(filter.take(0, at: 20) == LightDecision(readAgainAt: 20 + LightFilter.zeroRecheck))
            #expect(filter.take(0, at: 20.2) == LightDecision(publish: 0), "dark after all: 0, read twice")
            filter.reset()
            #expect(filter.take(0, at: 30) == LightDecision(publish: 0), "it read 0 before: nothing to doubt")
        }
        var fresh = LightFilter(threshold: 0.2)
        #expect(fresh.take(0, at: 0) == LightDecision(publish: 0), "the first reading ever is published as read")
    }

    @Test("Noise within the threshold publishes nothing")
    func noise() {
        let levels: [Double] = [300, 310, 295, 305, 290, 312, 299, 301, 308, 293]
        #expect(published(polled(levels)).map(\.1) == [300])
    }

    @Test("A shadow that lasts one reading publishes nothing, and asks for a reading half a second later")
    func shadow() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        #expect(filter.take(120, at: 0.8) == LightDecision(readAgainAt: 1.3))
        #expect(filter.take(302, at: 1.3) == .keep, "the shadow has passed")
        #expect(filter.published == 300)
    }

    @Test("A new level is published once a reading at least half a second later agrees, as the later value read")
    func step() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        #expect(filter.take(120, at: 0.8) == LightDecision(readAgainAt: 1.3))
        #expect(filter.take(125, at: 1.0) == LightDecision(readAgainAt: 1.3), "too soon to confirm")
        #expect(filter.take(118, at: 1.3) == LightDecision(publish: 118), "a value the sensor read, not a mean")
        #expect(filter.take(300, at: 2.1) == LightDecision(readAgainAt: 2.6), "back up: a new departure")
    }

    @Test("Lights switched off wait a shorter hold than a shadow: ten times dimmer or more, 0.15 s")
    func lightsOff() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        #expect(filter.take(5, at: 1) == LightDecision(readAgainAt: 1.15))
        #expect(filter.take(5.5, at: 1.15) == LightDecision(publish: 5.5))
        #expect(filter.take(300, at: 2) == LightDecision(readAgainAt: 2.15), "on again: as short")
    }

    @Test("The hold shrinks with the size of the change, from a shadow's 0.5 s to 0.15 s at ten times")
    func holdBySize() {
        #expect(LightFilter.hold(departingBy: 1.2) == LightFilter.hold)
        #expect(LightFilter.hold(departingBy: 3) == LightFilter.hold, "a typing hand's darkest shadow")
        #expect(abs(LightFilter.hold(departingBy: 6.5) - 0.325) < 1e-9, "half way")
        #expect(LightFilter.hold(departingBy: 10) == LightFilter.shortHold)
        #expect(LightFilter.hold(departingBy: 75) == LightFilter.shortHold)
        let ratios = stride(from: 1.0, through: 20, by: 0.5).map(LightFilter.hold(departingBy:))
        #expect(zip(ratios, ratios.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test("Two departures that disagree with each other do not confirm each other")
    func disagreeing() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        _ = filter.take(100, at: 0.8)
        #expect(filter.take(900, at: 1.3) == LightDecision(readAgainAt: 1.8), "brighter, not the same dip")
        #expect(filter.take(880, at: 1.8) == LightDecision(publish: 880))
    }

    @Test("A change below the threshold is published once the sensor reads the same value three times in a row")
    func rest() {
        let levels: [Double] = [300, 320, 320, 320, 320]
        #expect(published(polled(levels)).map(\.1) == [300, 320], "at rest the level is the sensor's")
        let drifting: [Double] = [300, 320, 321, 320, 319]
        #expect(published(polled(drifting)).map(\.1) == [300], "a noisy level is not at rest")
    }

    @Test("The threshold is a ratio, either way: 20 % is 1.2 times brighter or dimmer")
    func ratio() {
        let filter = LightFilter(threshold: 0.2)
        #expect(!filter.differs(119, from: 100) && filter.differs(121, from: 100))
        #expect(!filter.differs(100, from: 119) && filter.differs(100, from: 121))
        #expect(!filter.differs(0.2, from: 0.9), "darkness below 1 is one level")
        #expect(filter.differs(0, from: 50), "lights off is a change")
    }

    @Test("A threshold of 0 publishes every change at once, as iio-sensor-proxy does")
    func off() {
        let levels: [Double] = [300, 310, 310, 120, 300]
        #expect(published(polled(levels), threshold: 0).map(\.1) == [300, 310, 120, 300])
    }

    @Test("A reset publishes the next reading at once")
    func reset() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        filter.reset()
        #expect(filter.take(301, at: 5) == LightDecision(publish: 301))
    }

    @Test("Hand shadows while typing, then the lights go off: a handful of levels, every one a value read")
    func hunting() {
        // 300 lux ± 3 %, a shadow at 40 % for one reading every third, then 4 lux from 24 s on.
        var readings: [(Double, Double)] = []
        for step in 0..<40 {
            let time = Double(step) * 0.8
            let noise = [1.0, 1.03, 0.97, 1.01, 0.99][step % 5]
            let lit = time < 24 ? 300 * noise : 4 * noise
            readings.append((time, step % 3 == 2 && time < 24 ? lit * 0.4 : lit))
        }
        let changes = published(readings)
        #expect(changes.count == 2, "\(changes)")
        #expect(changes.last.map { $0.0 >= 24 && $0.0 <= 24.8 + LightFilter.hold } == true, "\(changes)")
        #expect(changes.allSatisfy { change in readings.contains { $0.1 == change.1 } })
    }
}
