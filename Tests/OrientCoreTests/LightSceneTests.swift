import OrientCore
import OrientScenarios
import Testing

/// The light filter over a seeded family of rooms (issue 39's), against iio-sensor-proxy's rule of publishing every
/// change, both reading the same sensor every 0.8 s: the figures `Benchmarks/Scripts/light-scenes.py` measures on the
/// real daemons, here on the pure filter, so that a change to it that breaks one fails at once.
@Suite("Light filter over a family of rooms")
struct LightSceneTests {
    @Test("While the room is steady, with shadows, noise and flicker: at least 5 times fewer changes than every change", arguments: 1...20)
    func steady(seed: Int) {
        let run = LightSceneRun(LightScene(seed: seed))
        let (every, filtered) = (run.everyChange.changes(in: run.scene.steadyPart), run.filtered.changes(in: run.scene.steadyPart))
        #expect(every >= 5 * max(filtered, 1), "\(run.scene): \(every) changes published as read, \(filtered) filtered")
    }

    @Test("A step of 3 times or more is published no later than 1 s after a reader that publishes every change", arguments: 1...20)
    func steps(seed: Int) {
        let run = LightSceneRun(LightScene(seed: seed))
        for step in run.scene.steps where step.ratio >= 3 {
            let window = step.start..<(step.start + LightScene.stepLength)
            guard let every = run.everyChange.reached(step.level, in: window) else { continue }
            let filtered = run.filtered.reached(step.level, in: window)
            #expect(filtered.map { $0 - every <= 1 } == true, "\(run.scene), step to \(step.level): \(every) and \(String(describing: filtered))")
        }
    }

    @Test("At the end of every step the level published is a value read, within the threshold of the room's or a lux", arguments: 1...20)
    func rest(seed: Int) {
        let run = LightSceneRun(LightScene(seed: seed))
        for step in run.scene.steps {
            let end = step.start + LightScene.stepLength
            guard let level = run.filtered.level(at: end) else { Issue.record("nothing published"); continue }
            // The sensor reads whole lux: a room of 2.5 lux reads 2 or 3, each a fifth away.
            #expect(abs(level - step.level) <= max(0.2 * step.level, 1), "\(run.scene), step to \(step.level): \(level)")
            #expect(run.readings.contains { $0.level == level })
        }
    }

    @Test("A steady room with 5 % noise and nothing else: fewer than 10 levels a minute on average, not every change's 73")
    func noiseOnly() {
        let (filtered, every) = SteadyRoom.levelsAMinute(draws: 50)
        // Over 200 draws (`swift run light-family`): 7.8 a minute, against every change's 72.9; 6.8 before a drift onward
        // needed only half as far, 8.3 before drifts back and forth were held, 13.8 before the drift's doubt too.
        #expect(filtered < 10, "\(filtered) a minute, every change \(every)")
    }

    @Test("A steady room with flicker's beat of 4 % over 8 s, 1 % noise and no shadow: at least 5 times fewer levels than every change")
    func flickerOnly() {
        let (filtered, every) = SteadyRoom.levelsAMinute(draws: 50, noise: 0.01, beat: 0.04, beatPeriod: 8)
        // Over 200 draws (`swift run light-family`): 9.5 a minute against every change's 69.5 (7.3x); 8.9 (7.8x) before a
        // drift onward needed only half as far, 14.4 (4.8x) before drifts back and forth were held.
        #expect(every >= 5 * filtered, "\(filtered) a minute, every change \(every)")
    }

    @Test("A ramp (the level doubled or halved over 30 s) is followed: never a quarter away, and on average within 3 points of every change", arguments: 1...20)
    func ramp(seed: Int) {
        let run = LightSceneRun(LightScene(seed: seed))
        let (filtered, every) = (run.rampGaps(run.filtered), run.rampGaps(run.everyChange))
        // The largest gap, over these rooms: 6 % to 20 %, within 10 % in 12 of them, where publishing every change gives
        // 5 % to 13 %, within 10 % in 10 (its readings' noise); over seeds 1 to 400, one room goes past 25 % (26 %).
        // The filter before issue 39 trailed real ramps by 19 % to 29 % (BENCHMARKS.md). Issue 39's 10 % is not met in
        // every room.
        #expect(filtered.largest <= 0.25, "\(run.scene): \(Int(filtered.largest * 100)) % from the room's level")
        // On average, once a trend is followed, as near the room as every change: over these rooms a quarter of a point
        // further at the median and 2.3 points further at most.
        #expect(filtered.mean <= every.mean + 0.03, "\(run.scene): \(filtered.mean) on average, every change \(every.mean)")
    }

    @Test("Over seeds 1 to 20, a ramp is followed within 10 % in at least as many rooms as by publishing every change")
    func rampsWithinTenth() {
        let runs = (1...20).map { LightSceneRun(LightScene(seed: $0)) }
        let filtered = runs.filter { $0.rampGaps($0.filtered).largest <= 0.1 }.count
        let every = runs.filter { $0.rampGaps($0.everyChange).largest <= 0.1 }.count
        // 12 against 10; over seeds 1 to 400, 255 against 208 (`swift run light-family`).
        #expect(filtered >= every, "\(filtered) rooms within 10 %, every change \(every)")
    }

    @Test("Not every ramp can be followed within 10 %: over seeds 1 to 40, a reader that knows all but when the ramp starts misses it in some rooms, publishing values read")
    func rampStartUnknown() {
        let runs = (1...40).map { LightSceneRun(LightScene(seed: $0)) }
        let missed = runs.filter { run in
            let knowing = run.knowingAllButWhenTheRampStarts(within: 15)
            #expect(knowing.changes.allSatisfy { change in run.polls.contains { $0.level == change.level } })
            return run.rampGaps(knowing).largest > 0.1
        }
        // Seeds 29, 34 and 37 (10 % to 11 %); over seeds 1 to 400 it misses 9 rooms, the filter 145 (`swift run
        // light-family`). Issue 39's "a ramp within 10 % in every room" is beyond what the readings tell.
        #expect(!missed.isEmpty, "every ramp within 10 %")
    }

    @Test("A reader that knew the room's true level would follow every ramp within 10 % with values read: it is not publishing values read that keeps a filter from it", arguments: 1...20)
    func rampKnowingTheRoom(seed: Int) {
        let run = LightSceneRun(LightScene(seed: seed))
        let knowing = run.nearestToTruth(within: 10)
        #expect(run.rampGaps(knowing).largest <= 0.1, "\(run.scene): \(run.rampGaps(knowing).largest)")
        #expect(knowing.changes.allSatisfy { change in run.polls.contains { $0.level == change.level } })
    }
}
