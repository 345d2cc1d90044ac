import ArgumentParser
import Foundation
import OrientCore
import OrientScenarios

/// `light-family`: orientd's light filter over issue 39's family of rooms, without daemons, against the rule of
/// publishing every change; in the five rooms `light-scenes.py` runs side by side, how often each of several readers
/// follows the ramp within 10 % over many draws of the same room; and steady rooms with noise or flicker's beat alone.
/// A development tool: it lives beside the tests and is not installed. BENCHMARKS.md quotes what it prints.
@main
struct LightFamily: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "light-family",
        abstract: "The light filter over a family of rooms, and the benchmark's rooms over many draws."
    )

    @Option(help: "Rooms of the family, seeds 1 to this.")
    var rooms = 400

    @Option(help: "Draws of each of the benchmark's five rooms.")
    var draws = 200

    func validate() throws {
        guard rooms >= 1 else { throw ValidationError("--rooms must be at least 1, not \(rooms)") }
        guard draws >= 1 else { throw ValidationError("--draws must be at least 1, not \(draws)") }
    }

    func run() {
        family()
        benchmarkRooms()
        steadyRooms()
    }

    /// Seeds 1 to `rooms`: the figures `LightSceneTests` checks on 20 of them.
    private func family() {
        var (rampsWithin, everyRampsWithin, rampsPastQuarter) = (0, 0, 0)
        var (steady, everySteady, underFive, smallestRatio) = (0, 0, 0, Double.infinity)
        var (stepsBehind, restOff) = (0, 0)
        var (averageGaps, everyAverageGaps): ([Double], [Double]) = ([], [])
        var (kinkedWithin, knowingWithin) = (0, 0)
        for seed in 1...rooms {
            let run = LightSceneRun(LightScene(seed: seed))
            let (gaps, everyGaps) = (run.rampGaps(run.filtered), run.rampGaps(run.everyChange))
            let (gap, everyGap) = (gaps.largest, everyGaps.largest)
            averageGaps.append(gaps.mean)
            everyAverageGaps.append(everyGaps.mean)
            rampsWithin += gap <= 0.1 ? 1 : 0
            everyRampsWithin += everyGap <= 0.1 ? 1 : 0
            rampsPastQuarter += gap > 0.25 ? 1 : 0
            kinkedWithin += run.rampGaps(run.nearestToKinkedLine(through: 15)).largest <= 0.1 ? 1 : 0
            knowingWithin += run.rampGaps(run.knowingAllButWhenTheRampStarts(within: 15)).largest <= 0.1 ? 1 : 0
            let (every, filtered) = (run.everyChange.changes(in: run.scene.steadyPart), run.filtered.changes(in: run.scene.steadyPart))
            (steady, everySteady) = (steady + filtered, everySteady + every)
            underFive += every < 5 * max(filtered, 1) ? 1 : 0
            smallestRatio = min(smallestRatio, Double(every) / Double(max(filtered, 1)))
            for step in run.scene.steps {
                let window = step.start..<(step.start + LightScene.stepLength)
                if step.ratio >= 3, let reached = run.everyChange.reached(step.level, in: window),
                    run.filtered.reached(step.level, in: window).map({ $0 - reached <= 1 }) != true
                {
                    stepsBehind += 1
                }
                let rest = run.filtered.level(at: window.upperBound)
                restOff += rest.map { abs($0 - step.level) <= max(0.2 * step.level, 1) } == true ? 0 : 1
            }
        }
        print("Seeds 1 to \(rooms) of the family, the pure filter (every change in brackets):")
        print("  ramps within 10 %: \(rampsWithin) (\(everyRampsWithin)); past 25 %: \(rampsPastQuarter); average gap, median: "
            + "\(format(100 * median(averageGaps))) % (\(format(100 * median(everyAverageGaps))) %)")
        print("  changes while steady: \(steady) (\(everySteady)); rooms under 5x fewer: \(underFive); fewest: \(format(smallestRatio))x")
        print("  steps of x3 or more over 1 s behind: \(stepsBehind); levels at rest off by more than 20 % or a lux: \(restOff)")
        print("  ramps within 10 % by readers that know more (from when the shadows are over, every poll): a kinked line "
            + "through 15 s \(kinkedWithin); knowing all but when the ramp starts \(knowingWithin)")
    }

    /// The rooms `light-scenes.py` draws for seeds 1 to 5 (Python's generator, so written out here), each read
    /// `draws` times: how often each reader's ramp stays within 10 %, and what it publishes a minute while steady.
    private func benchmarkRooms() {
        let rooms: [(room: Double, noise: Double, update: Double, flicker: Double, period: Double, ramp: Double)] = [
            (32.8314, 0.04390, 0.7874, 0.01020, 5.963, 0.5), (680.2276, 0.04791, 0.1509, 0.00339, 8.684, 0.5),
            (48.1131, 0.03177, 0.4330, 0.02416, 7.006, 2.0), (47.7742, 0.01413, 0.4565, 0.00620, 2.532, 0.5),
            (199.0471, 0.03967, 0.8157, 0.03770, 7.919, 2.0),
        ]
        let readers: [(name: String, published: (LightSceneRun) -> LightSceneRun.Published)] = [
            ("orientd's filter", \.filtered),
            ("every change", \.everyChange),
            ("line through 10 s, every poll", { $0.nearestToLine(through: 10, departing: 0) }),
            ("line through 10 s, 4 % apart", { $0.nearestToLine(through: 10, departing: 0.04) }),
            ("kinked line through 15 s", { $0.nearestToKinkedLine(through: 15) }),
            ("all but the ramp's start", { $0.knowingAllButWhenTheRampStarts(within: 15) }),
            ("knowing the room", { $0.nearestToTruth(within: 10) }),
        ]
        print("The benchmark's rooms, \(draws) draws each: ramps within 10 % (levels a minute while steady; - where a reader starts after the shadows)")
        print("  room" + readers.map { " | \($0.name)" }.joined())
        for (index, room) in rooms.enumerated() {
            var within = [Int](repeating: 0, count: readers.count)
            var steady = [Int](repeating: 0, count: readers.count)
            for draw in 0..<draws {
                let scene = LightScene(room: room.room, noise: room.noise, updatePeriod: room.update, flicker: room.flicker,
                                       flickerPeriod: room.period, rampFactor: room.ramp, draw: draw)
                let run = LightSceneRun(scene)
                for (reader, entry) in readers.enumerated() {
                    let published = entry.published(run)
                    within[reader] += run.rampGaps(published).largest <= 0.1 ? 1 : 0
                    steady[reader] += published.changes(in: scene.steadyPart)
                }
            }
            let minutes = Double(draws) * (LightScene.steadyLength - 3) / 60
            print("  \(index + 1): \(Int(room.room)) lux, noise \(format(room.noise * 100)) %"
                + zip(within, steady).map { " | \($0.0) (\($0.1 == 0 ? "-" : format(Double($0.1) / minutes)))" }.joined())
        }
    }

    /// ``SteadyRoom``: 5 % noise and nothing else, then flicker's beat with little noise and no shadow.
    private func steadyRooms() {
        let (filtered, every) = SteadyRoom.levelsAMinute(draws: 200)
        print("A steady room with 5 % noise alone, 200 draws: \(format(filtered)) levels a minute (every change \(format(every)))")
        for (beat, period) in [(0.04, 8.0), (0.04, 10.0), (0.03, 8.0), (0.04, 4.0)] {
            let (filtered, every) = SteadyRoom.levelsAMinute(draws: 200, noise: 0.01, beat: beat, beatPeriod: period)
            print("A steady room with a beat of \(format(beat * 100)) % over \(format(period)) s and 1 % noise, 200 draws: "
                + "\(format(filtered)) levels a minute (every change \(format(every)), \(format(every / max(filtered, 0.01)))x)")
        }
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
