import Foundation
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

    /// A reading every 0.8 s, as iio-sensor-proxy polls, starting at `start`.
    private func polled(_ levels: [Double], from start: Double = 0) -> [(Double, Double)] {
        levels.enumerated().map { (start + Double($0.offset) * 0.8, $0.element) }
    }

    /// A filter that has published `level` as the lights switched off or on: `before` read at 0, then `level` at `time`
    /// and again a short hold later, when it is published.
    private func switched(from before: Double, to level: Double, at time: Double) -> LightFilter {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(before, at: 0)
        _ = filter.take(level, at: time)
        #expect(filter.take(level, at: time + LightFilter.shortHold) == LightDecision(publish: level))
        return filter
    }

    /// Feeds `readings` (time, level) to `filter` as it stands and returns its decision on each.
    private func take(_ readings: [(Double, Double)], into filter: inout LightFilter) -> [LightDecision] {
        readings.map { time, level in filter.take(level, at: time) }
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
            #expect(filter.take(0, at: 10) == LightDecision(readAgainAt: 10 + LightFilter.zeroRecheck, doubtedZero: true), "a phantom 0 as it wakes")
            #expect(filter.take(280, at: 10.2) == LightDecision(publish: 280), "the light read again")
            filter.reset()
            #expect(filter.take(0, at: 20) == LightDecision(readAgainAt: 20 + LightFilter.zeroRecheck, doubtedZero: true))
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

    @Test("A shadow that lasts one reading publishes nothing, and asks for a reading a shadow's hold later")
    func shadow() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        #expect(filter.take(150, at: 0.8) == LightDecision(readAgainAt: 0.8 + LightFilter.shadowHold), "halved: a shadow")
        #expect(filter.take(302, at: 1.6) == .keep, "the shadow has passed")
        #expect(filter.published == 300)
    }

    @Test("A shadow as long as a typing hand's longest, 2.5 s read every 0.8 s, publishes nothing")
    func longShadow() {
        let levels: [Double] = [300, 300, 160, 170, 150, 165, 298, 301]
        #expect(published(polled(levels)).map(\.1) == [300])
    }

    @Test("A new level is published once every reading for a shadow's hold has departed alike, as the median read")
    func step() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        let hold = LightFilter.shadowHold
        #expect(filter.take(160, at: 1) == LightDecision(readAgainAt: 1 + hold))
        #expect(filter.take(150, at: 1.8) == LightDecision(readAgainAt: 1 + hold), "too soon to confirm")
        #expect(filter.take(155, at: 2.6) == LightDecision(readAgainAt: 1 + hold))
        #expect(filter.take(148, at: 1 + hold) == LightDecision(publish: 150), "the median of 160, 150, 155, 148: a value read")
        #expect(filter.take(300, at: 5) == LightDecision(readAgainAt: 5 + hold), "back up: a new departure")
    }

    @Test("A reading back within the threshold during the hold starts it again")
    func interrupted() {
        let levels: [Double] = [300, 150, 150, 290, 150, 150, 150]
        #expect(published(polled(levels)).map(\.0) == [0], "no three readings departed in a row before 4.8 s")
        #expect(published(polled(levels + [150, 150])).map(\.1) == [300, 150])
    }

    @Test("Lights switched off wait a short hold: 2.7 times dimmer or more, 0.15 s, and the latest reading")
    func lightsOff() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        #expect(filter.take(90, at: 1) == LightDecision(readAgainAt: 1.15))
        #expect(filter.take(95, at: 1.15) == LightDecision(publish: 95))
        #expect(filter.take(300, at: 2) == LightDecision(readAgainAt: 2.15), "on again: as short")
    }

    @Test("The hold shrinks with the size of the change, from a shadow's hold up to 2.4 times to 0.15 s at 2.7 times")
    func holdBySize() {
        #expect(LightFilter.hold(departingBy: 1.2) == LightFilter.shadowHold)
        #expect(LightFilter.hold(departingBy: 2.4) == LightFilter.shadowHold, "a typing hand's darkest shadow, and noise")
        #expect(abs(LightFilter.hold(departingBy: 2.55) - (LightFilter.shadowHold + LightFilter.shortHold) / 2) < 1e-9, "half way")
        #expect(LightFilter.hold(departingBy: 2.7) == LightFilter.shortHold)
        #expect(LightFilter.hold(departingBy: 3) == LightFilter.shortHold)
        #expect(LightFilter.hold(departingBy: 75) == LightFilter.shortHold)
        let ratios = stride(from: 1.0, through: 20, by: 0.1).map(LightFilter.hold(departingBy:))
        #expect(zip(ratios, ratios.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test("A step of 3 times that the sensor's noise and a published level read a little high make 2.8 waits the short hold")
    func noisyStep() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(452, at: 0)
        #expect(filter.take(162, at: 1) == LightDecision(readAgainAt: 1 + LightFilter.shortHold), "461 lux to 153, read as 452 to 162")
        #expect(filter.take(157, at: 1 + LightFilter.shortHold) == LightDecision(publish: 157))
    }

    @Test("A new level whose readings spread is held through them: each agrees with the median of those held, give or take half a lux")
    func spreadingLevel() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(31, at: 0)
        // 45 is more than 20 % below the first, 55, and within 20 % of the median held, 49.
        let brighter = polled([55, 49, 51, 49, 45, 51, 49, 50], from: 1)
        let published = zip(brighter, take(brighter, into: &filter)).compactMap { reading, decision in decision.publish.map { (reading.0, $0) } }
        #expect(published.first.map { $0.0 <= 1 + LightFilter.shadowHold + 0.8 && (45...55).contains($0.1) } == true, "\(published)")

        var dim = LightFilter(threshold: 0.2)
        _ = dim.take(5, at: 0)
        // A room of 9.2 lux read in whole lux: 10 is 25 % above 8, and 9.5 is within 20 % of 8.5.
        let risen = polled([8, 8, 9, 10, 10, 10], from: 1)
        let dimPublished = zip(risen, take(risen, into: &dim)).compactMap { reading, decision in decision.publish.map { (reading.0, $0) } }
        #expect(dimPublished.first.map { $0.0 <= 1 + LightFilter.shadowHold + 0.8 && $0.1 >= 8 } == true, "\(dimPublished)")
    }

    @Test("In the dark a departure begins with the readings as far from the level but only a unit away: 2 lux rising to 3.5")
    func darkDepartureBegins() {
        let levels: [Double] = [2, 3, 3, 4, 4, 3, 4, 3]
        let changes = published(polled(levels))
        // The first 3 is read at 0.8 s: a shadow's hold from there, and the reading that lands on it.
        #expect(changes.count == 2 && changes.last.map { $0.0 <= 0.8 + LightFilter.shadowHold + 0.8 && $0.1 >= 3 } == true, "\(changes)")
    }

    @Test("A departure of less than 2.7 times goes on through readings back within the threshold but a drift away; lights off does not")
    func crossing() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(144, at: 0)
        let hold = LightFilter.shadowHold
        #expect(filter.take(119, at: 1) == LightDecision(readAgainAt: 1 + hold), "a fifth dimmer, and a little more")
        #expect(filter.take(124, at: 1.8) == LightDecision(readAgainAt: 1 + hold), "back within the threshold, not to 144")
        #expect(filter.take(113, at: 2.6) == LightDecision(readAgainAt: 1 + hold))
        #expect(filter.take(116, at: 1 + hold) == LightDecision(publish: 116), "the median of 119, 124, 113, 116")

        var dark = LightFilter(threshold: 0.2)
        _ = dark.take(300, at: 0)
        #expect(dark.take(5, at: 1) == LightDecision(readAgainAt: 1 + LightFilter.shortHold))
        #expect(dark.take(250, at: 1 + LightFilter.shortHold) == .keep, "one dark reading, then light: not confirmed")
        #expect(dark.published == 300)
    }

    @Test("A shadow that ends a little below the level it left does not publish the shadow's depth")
    func shadowEndingLower() {
        let levels: [Double] = [300, 150, 150, 150, 280, 280, 281, 279, 280, 280]
        let changes = published(polled(levels))
        #expect(changes.allSatisfy { $0.1 >= 279 }, "\(changes)")
    }

    @Test("A shadow followed by a real change publishes the change, not the shadow's depth")
    func shadowThenChange() {
        let levels: [Double] = [300, 150, 150, 150, 230, 230, 231, 229, 230, 230]
        let changes = published(polled(levels))
        #expect(changes.count == 2 && changes.last.map { (229...231).contains($0.1) } == true, "\(changes)")
    }

    @Test("In the dark, readings a unit apart are one level: a step from 2 to 4 lux is held and published through them")
    func darkUnits() {
        let filter = LightFilter(threshold: 0.2)
        #expect(!filter.differs(4, from: 3) && !filter.differs(2, from: 3), "a unit apart")
        #expect(filter.differs(4, from: 2) && filter.differs(30, from: 20))
        let levels: [Double] = [2, 2, 4, 3, 4, 4, 3, 4, 4]
        let changes = published(polled(levels))
        #expect(changes.count == 2 && changes.last.map { $0.1 >= 3 && $0.0 <= 1.6 + LightFilter.shadowHold + 0.8 } == true, "\(changes)")
    }

    @Test("Lights switched off are followed by the settled level 5 s and 15 s later, each a change a client hears")
    func followUps() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(200, at: 0)
        #expect(filter.take(50, at: 2) == LightDecision(readAgainAt: 2 + LightFilter.shortHold))
        #expect(filter.take(51, at: 2.15) == LightDecision(publish: 51))
        // Every 0.8 s from 2.95 s: around 50, both ways, so that neither the rest nor the drift rule publishes.
        let noise: [Double] = [49, 50, 51, 50, 49, 50, 50, 51, 49, 50, 51, 50, 49, 50, 51, 50, 49, 50, 51, 50]
        let readings = polled(noise, from: 2.95)
        let published = zip(readings, take(readings, into: &filter)).compactMap { reading, decision in
            decision.publish.map { (reading.0, $0) }
        }
        #expect(published.count == 2, "\(published)")
        #expect(published.first.map { $0.0 >= 7.15 && $0.0 < 7.15 + 0.8 && $0.1 == 50 } == true, "the median since, 5 s on: \(published)")
        #expect(published.last.map { $0.0 >= 17.15 && $0.0 < 17.15 + 0.8 && $0.1 != 50 } == true,
                "15 s on, the median is 50 again, published already: the reading nearest it that is not: \(published)")
    }

    @Test("A follow-up that has two readings as near the settled level to choose from takes the later one")
    func followUpTakesTheLater() {
        var filter = switched(from: 200, to: 50, at: 2)
        // The median since is 50, published already; 51 and 49 are as near it, and 49 came last.
        let decisions = take(polled([51, 50, 50, 49, 50, 49, 50], from: 2.95), into: &filter)
        #expect(decisions.compactMap(\.publish) == [49], "\(decisions)")
    }

    @Test("A follow-up is the level settled now: the median of the last 2.4 s, not of every reading since lights off")
    func followUpIsRecent() {
        var filter = switched(from: 32, to: 3, at: 1)
        // In the dark, 4 and 2 are each a unit from 3: neither departs, and the room has gone to 2 by the follow-up.
        let decisions = take(polled([4, 4, 3, 4, 4, 2, 2], from: 1.95), into: &filter)
        #expect(decisions.compactMap(\.publish) == [2], "\(decisions)")
    }

    @Test("A change a shadow could make is not followed up")
    func noFollowUps() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(200, at: 0)
        let held: [Double] = [100, 101, 99, 100, 100]
        _ = take(polled(held, from: 1), into: &filter)
        #expect(filter.published == 100)
        let noise: [Double] = [99, 100, 101, 100, 99, 100, 100, 101, 99, 100, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100]
        let after = take(polled(noise, from: 5), into: &filter)
        #expect(after.allSatisfy { $0.publish == nil }, "\(after)")
    }

    @Test("A sensor that reads one value after lights off has nothing more to give")
    func followUpsOfOneValue() {
        var filter = switched(from: 200, to: 50, at: 2)
        let same = take(polled(Array(repeating: 50, count: 25), from: 2.95), into: &filter)
        #expect(same.allSatisfy { $0.publish == nil }, "\(same)")
    }

    @Test("Two departures that disagree with each other do not confirm each other")
    func disagreeing() {
        var filter = LightFilter(threshold: 0.2)
        _ = filter.take(300, at: 0)
        _ = filter.take(100, at: 0.8)
        #expect(filter.take(1000, at: 1) == LightDecision(readAgainAt: 1 + LightFilter.shortHold), "brighter, not the same dip")
        #expect(filter.take(990, at: 1 + LightFilter.shortHold) == LightDecision(publish: 990))
    }

    @Test("A change below the threshold is published once the sensor reads the same value three times in a row")
    func rest() {
        let levels: [Double] = [300, 320, 320, 320, 320]
        #expect(published(polled(levels)).map(\.1) == [300, 320], "at rest the level is the sensor's")
        let noisy: [Double] = [300, 306, 308, 305, 307]
        #expect(published(polled(noisy)).map(\.1) == [300], "a noisy level is not at rest, nor a drift")
    }

    @Test("A slow drift below the threshold is followed: the reading nearest a line through 7 s, once a fifth of the threshold away")
    func drift() {
        // Dusk: 2 % dimmer every reading, with a little noise; the threshold of 20 % is never crossed at once.
        let noise: [Double] = [1, 1.01, 0.99, 1.005, 0.995]
        let levels: [Double] = (0..<30).map { step in 300 * pow(0.98, Double(step)) * noise[step % 5] }
        let changes = published(polled(levels))
        #expect(changes.count >= 5, "\(changes)")
        for (time, level) in changes {
            let step = Int((time / 0.8).rounded())
            let truth = 300 * pow(0.98, Double(step))
            #expect(abs(level / truth - 1) < 0.1, "at \(time) s: \(level) against \(truth)")
            #expect(levels.contains(level), "a value read")
        }
        let steady: [Double] = (0..<30).map { step in
            let bump: Double = step % 4 == 3 ? 1.06 : 1
            return 300 * noise[step % 5] * bump
        }
        #expect(published(polled(steady)).map(\.1) == [300], "noise both ways is no drift")
        let shadowed: [Double] = [300, 300, 300, 300, 300, 300, 300, 280, 282, 300, 301, 299, 300, 300]
        #expect(published(polled(shadowed)).map(\.1) == [300], "a faint shadow of two readings is no drift")
    }

    @Test("A sensor read ten times a second: a dusk is followed as closely, and noise both ways is still no drift")
    func driftReadOften() {
        // 70 readings in a drift's 7 s: the line's slopes are taken between the medians of 16 runs of them. Each level
        // published is within 3 % of the room (a line whose runs lost their times, and so its slope, trails by 9 %).
        let noise: [Double] = [1, 1.01, 0.99, 1.005, 0.995, 1.02, 0.98]
        let times = (0..<300).map { Double($0) / 10 }
        let dusk = times.enumerated().map { ($1, 300 * pow(0.98, $1 / 0.8) * noise[$0 % 7]) }
        let changes = published(dusk)
        #expect(changes.count >= 5, "\(changes)")
        for (time, level) in changes {
            let truth = 300 * pow(0.98, time / 0.8)
            #expect(abs(level / truth - 1) < 0.03, "at \(time) s: \(level) against \(truth)")
            #expect(dusk.contains { $0.1 == level }, "a value read")
        }
        let steady = times.enumerated().map { ($1, 300 * noise[$0 % 7]) }
        #expect(published(steady).map(\.1) == [300], "noise both ways is no drift")
    }

    @Test("A drift needs its line's 7 s: 6 readings spanning 5.5 s, so a room 4.5 % dimmer is followed 5.6 s after it went")
    func driftWindow() {
        // 100, then about 95.5 from 0.8 s on, never three alike (which the rest rule would publish).
        let changes = published(polled([100, 95, 96, 95.5, 95, 96, 95.5, 95, 96]))
        #expect(changes.map(\.1) == [100, 95], "\(changes)")
        #expect(changes.last.map { abs($0.0 - 5.6) < 1e-9 } == true, "\(changes)")
    }

    @Test("Drifts back and forth: the first drift back is published as any drift, the next one back within 10 s needs twice as far")
    func backAndForth() {
        // 100, then about 95.5 (published as a drift at 5.6 s), then back at about 100 for 12 readings, then about 95.5
        // again: never three alike in a row, which the rest rule would publish.
        let dimmer: [Double] = [100, 95, 96, 95.5, 95, 96, 95.5, 95, 96]
        let back = Array(repeating: [99.5, 100, 99, 100.5], count: 3).joined()
        let again = Array(repeating: [95, 96, 95.5, 96.5], count: 5).joined()
        let changes = published(polled(dimmer + back + again))
        #expect(changes.count == 4, "\(changes)")
        guard changes.count == 4 else { return }
        #expect(changes.map(\.1).prefix(2) == [100, 95], "\(changes)")
        // Back up: a drift's 4 % and its doubt, published while the readings still say about 100.
        #expect([99.5, 100, 99, 100.5].contains(changes[2].1) && changes[2].0 < 16, "\(changes)")
        // Down again, 5 %: not twice a drift's 4 %, so published at the first reading 10 s after the drift back.
        #expect(changes[3].0 >= changes[2].0 + 10 && changes[3].0 < changes[2].0 + 10.8, "\(changes)")
        #expect([95, 96, 95.5, 96.5].contains(changes[3].1), "\(changes)")
        // Down again by 10 % is a room that went down: published within the 10 s.
        let further = Array(repeating: [90.5, 90, 89.5, 91], count: 5).joined()
        let sooner = published(polled(dimmer + back + further))
        #expect(sooner.count == 4 && sooner[3].0 < sooner[2].0 + 10, "\(sooner)")
    }

    @Test("A drift the way the last one went, within 8 s, needs half as far (2 %); a drift back needs the whole 4 %")
    func onwardDrift() {
        // 100, then about 95.5 (published as a drift at 5.6 s), then about 3 % further down, or as far back up; never
        // three alike in a row, which the rest rule would publish.
        let dimmer: [Double] = [100, 95, 96, 95.5, 95, 96, 95.5, 95, 96]
        let further = published(polled(dimmer + [92.5, 92, 93, 92.5, 92, 93, 92.5]))
        #expect(further.count == 3 && further[2].0 < 5.6 + 8, "\(further)")
        #expect([92.5, 92, 93].contains(further.last?.1 ?? 0), "\(further)")
        let back = published(polled(dimmer + [98.5, 98, 99, 98.5, 98, 99, 98.5]))
        #expect(back.map(\.1) == [100, 95], "\(back)")
    }

    @Test("Two drifts in a row the same way make a trend: the reading nearest its line is published once 2 % further along, until one turns back")
    func trend() {
        // Dusk, 1.5 lux dimmer at each reading: the first drift once 7 s of readings make a line (92, at 5.6 s), the
        // second, the same way, once it is 2 % past that (89), then the reading nearest the trend's line once it lies 2 %
        // further along (86, 83).
        let dusk: [Double] = [100, 100, 100, 98, 97, 95, 94, 92, 91, 89, 88, 86, 85, 83, 82]
        let changes = published(polled(dusk))
        #expect(changes.map(\.1) == [100, 92, 89, 86, 83], "\(changes)")
        // A reading that noise throws further along is not published: 78 between 86 and 85 lies 9 % along, but the
        // trend's line puts the room at about 85.
        let thrown: [Double] = [100, 100, 100, 98, 97, 95, 94, 92, 91, 89, 88, 86, 78, 85, 83, 82]
        #expect(published(polled(thrown)).map(\.1) == [100, 92, 89, 86, 83], "\(published(polled(thrown)))")
        // Turned back: 88 to 90 after 89 are the other way, and wait for a drift of their own (4 %).
        let turned: [Double] = [100, 100, 100, 98, 97, 95, 94, 92, 91, 89, 88, 89, 90, 89]
        #expect(published(polled(turned)).map(\.1) == [100, 92, 89], "\(published(polled(turned)))")
    }

    @Test("For 5 s after a level published along a trend, none back against it is published at rest or as a drift")
    func trendHoldsBack() {
        // Dusk down to 89 (published at 7.2 s, making the trend), then the sensor reads 88, and 90 from 8.8 s on: at rest
        // from 10.4 s, but back against the trend, so published only once 5 s have passed since 89, at the next reading.
        let settled: [Double] = [100, 100, 100, 98, 97, 95, 94, 92, 91, 89, 88] + Array(repeating: 90, count: 9)
        let changes = published(polled(settled))
        #expect(changes.map(\.1) == [100, 92, 89, 90], "\(changes)")
        #expect(changes.last.map { abs($0.0 - 12.8) < 1e-9 } == true, "\(changes)")
        // A ramp's readings scatter about it: 91, 91, 91 read back up between 86 and 83 is not published.
        let scattered: [Double] = [100, 100, 100, 98, 97, 95, 94, 92, 91, 89, 88, 86, 91, 91, 91, 83, 82]
        #expect(published(polled(scattered)).map(\.1) == [100, 92, 89, 86, 83], "\(published(polled(scattered)))")
        // A departure is no drift: lights switched on are published at once, trend or not.
        let switchedOn: [Double] = [100, 100, 100, 98, 97, 95, 94, 92, 91, 89, 88, 86, 400, 400]
        #expect(published(polled(switchedOn)).map(\.1) == [100, 92, 89, 86, 400], "\(published(polled(switchedOn)))")
    }

    @Test("A follow-up settles on the readings of the last 2.4 s, polled every 0.8 s: three, not the one 2.4 s before, however the times add up")
    func settledWindowEdge() {
        var filter = switched(from: 1000, to: 100, at: 0.8)
        // A poll timer adds 0.8 s at each read: 2.4 s before the follow-up's reading can come out a hair later than
        // the reading it was. The last three, 95, 105 and 105, settle on 105; with the fourth, on 95.
        var time = 0.8 + LightFilter.shortHold
        var decisions: [LightDecision] = []
        for level: Double in [100, 100, 100, 95, 95, 105, 105] {
            time += 0.8
            decisions.append(filter.take(level, at: time))
        }
        #expect(decisions.compactMap(\.publish) == [105], "\(decisions)")
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
        // Lights off, then at most two more: the follow-up 5 s later, and the drift rule trading the dark reading
        // published, the brightest of its noise, for one nearer the level the next ones read.
        #expect((2...4).contains(changes.count), "\(changes)")
        #expect(changes.map(\.1).dropFirst().allSatisfy { $0 < 5 }, "\(changes)")
        #expect(changes.dropFirst().first.map { $0.0 >= 24 && $0.0 <= 24.8 + LightFilter.shortHold } == true, "\(changes)")
        #expect(changes.allSatisfy { change in readings.contains { $0.1 == change.1 } })
    }
}
