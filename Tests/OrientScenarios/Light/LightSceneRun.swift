import Foundation
import OrientCore

/// Readers of one scene, each polling the sensor every 0.8 s at its own phase: every change published as read
/// (iio-sensor-proxy's rule) and orientd's ``LightFilter``, which reads sooner when it asks to. A third reader, a
/// yardstick and no candidate, is built from the first one's polls: ``nearestToLine(through:departing:)``, and one
/// that cannot be built, which knows the room: ``nearestToTruth(within:)``.
public struct LightSceneRun {
    /// The levels a reader published, with when.
    public struct Published {
        public var changes: [(time: Double, level: Double)] = []

        public func changes(in range: Range<Double>) -> Int { changes.filter { range.contains($0.time) }.count }
        public func level(at time: Double) -> Double? { changes.last { $0.time <= time }?.level }
        /// When a level within 30 % of `level` was first published in `window`.
        public func reached(_ level: Double, in window: Range<Double>) -> Double? {
            changes.first { window.contains($0.time) && abs($0.level - level) <= 0.3 * level }?.time
        }
    }

    public static let pollInterval = 0.8

    public let scene: LightScene
    /// What the filter read, and when.
    public let readings: [(time: Double, level: Double)]
    /// What the reader that publishes every change read at each poll.
    public let polls: [(time: Double, level: Double)]
    public let everyChange: Published
    public let filtered: Published

    public init(_ scene: LightScene, threshold: Double = 0.2) {
        var scene = scene
        let values = scene.sensorValues()
        func value(at time: Double) -> Double { values.last { $0.time <= time }?.level ?? values[0].level }
        var phases = SeededRandom(seed: UInt64(scene.seed) &* 7 &+ 1)

        var every = Published()
        var polls: [(time: Double, level: Double)] = []
        var time = phases.uniform(0...Self.pollInterval)
        while time < scene.end {
            let level = value(at: time)
            polls.append((time, level))
            if every.changes.last?.level != level { every.changes.append((time, level)) }
            time += Self.pollInterval
        }

        var filter = LightFilter(threshold: threshold)
        var filtered = Published()
        var readings: [(time: Double, level: Double)] = []
        time = phases.uniform(0...Self.pollInterval)
        while time < scene.end {
            let level = value(at: time)
            readings.append((time, level))
            let decision = filter.take(level, at: time)
            if let published = decision.publish { filtered.changes.append((time, published)) }
            time = min(time + Self.pollInterval, max(time, decision.readAgainAt ?? .infinity))
        }
        self.scene = scene
        self.readings = readings
        self.polls = polls
        everyChange = every
        self.filtered = filtered
    }

    /// How far `published` lies from the room's true level during the ramp, from 2 s in, every 0.1 s (as
    /// `light-scenes.py` measures it): at most and on average, as fractions.
    public func rampGaps(_ published: Published) -> (largest: Double, mean: Double) {
        let ramp = scene.rampPart
        let gaps = (Int(ramp.lowerBound * 10 + 20)..<Int(ramp.upperBound * 10)).compactMap { tenth -> Double? in
            let time = Double(tenth) / 10
            return published.level(at: time).map { abs($0 / scene.level(at: time) - 1) }
        }
        return (gaps.max() ?? 0, gaps.reduce(0, +) / Double(max(gaps.count, 1)))
    }

    /// What a reader that knew the room's true level could do with the same readings: at each poll, the reading of
    /// the last `window` seconds nearest the true level. Not a reader that can be built; it shows where the noise in the
    /// readings, not the rule of publishing values read, is what keeps a ramp from being followed closely.
    public func nearestToTruth(within window: Double) -> Published {
        publishingNearest(within: window) { time, _, _ in scene.level(at: time) }
    }

    /// A yardstick for how closely any reader that publishes values read can follow a ramp, not a filter to ship (a
    /// shadow pulls it, and it publishes several times as often): at each poll, a least-squares line through the
    /// polls of the last `window` seconds; once it lies more than `hysteresis` (a fraction) from the level published,
    /// the reading among them nearest it is published.
    public func nearestToLine(through window: Double, departing hysteresis: Double) -> Published {
        publishingNearest(within: window) { time, recent, last in
            guard recent.count >= 5 else { return nil }
            let now = Self.leastSquaresLine(through: recent.map { (x: $0.time - time, y: $0.level) }).level
            if let last, abs(now / max(last, 1) - 1) <= hysteresis { return nil }
            return now
        }
    }

    /// A yardstick that knows all but when the ramp starts: the room's level before it, how fast and which way it
    /// goes, and when the shadows are over. At each poll from then on, the ramp's start is put where the room it gives
    /// fits the polls of the last `window` seconds best (least squares, starts 0.1 s apart up to now), and the poll
    /// nearest the room it gives now is published, until the ramp ends. Where even it misses 10 %, the readings could
    /// not tell soon enough that the ramp had begun, and no reader of them can be sure to.
    public func knowingAllButWhenTheRampStarts(within window: Double) -> Published {
        let scene = scene
        func room(at time: Double, startingAt start: Double) -> Double {
            scene.room * pow(scene.rampFactor, max(0, time - start) / 30)
        }
        return publishingNearest(within: window) { time, recent, _ in
            let quiet = recent.filter { $0.time >= scene.shadowsOver }
            guard !quiet.isEmpty, time < scene.rampPart.upperBound else { return nil }
            let fits = stride(from: scene.shadowsOver, through: time, by: 0.1).map { start in
                (start: start, error: Self.squaredError(of: quiet) { room(at: $0, startingAt: start) })
            }
            return room(at: time, startingAt: fits.min { $0.error < $1.error }?.start ?? time)
        }
    }

    /// A yardstick that knows only that the room is steady until it ramps, and when the shadows are over: at each
    /// poll, a line with one kink (a level, then a slope from the kink on) fitted by least squares through the polls of
    /// the last `window` seconds since then, the kink at whichever of them fits best; the poll nearest where it puts
    /// the room now is published. It does not know the room's level, nor how fast the ramp goes or when it starts.
    public func nearestToKinkedLine(through window: Double) -> Published {
        let scene = scene
        return publishingNearest(within: window) { time, recent, _ in
            let quiet = recent.filter { $0.time >= scene.shadowsOver }
            guard quiet.count >= 3 else { return nil }
            let fits = quiet.dropLast(2).map { kink in
                let sinceKink = quiet.map { (x: max(0, $0.time - kink.time), y: $0.level) }
                return (kink: kink.time, line: Self.leastSquaresLine(through: sinceKink))
            }
            let best = fits.min { $0.line.squaredError < $1.line.squaredError }!
            return best.line.level + best.line.slope * (time - best.kink)
        }
    }

    /// The sum of the squared distances of `polls` from `model`.
    private static func squaredError(
        of polls: [(time: Double, level: Double)], from model: (Double) -> Double
    ) -> Double {
        polls.reduce(0) { sum, poll in sum + (poll.level - model(poll.time)) * (poll.level - model(poll.time)) }
    }

    /// The least-squares line through `points`: its level at x = 0, its slope, and the sum of the squared distances of
    /// the points from it. A line with no slope where every x is the same.
    private static func leastSquaresLine(
        through points: [(x: Double, y: Double)]
    ) -> (level: Double, slope: Double, squaredError: Double) {
        let count = Double(points.count)
        let (meanX, meanY) = (points.reduce(0) { $0 + $1.x } / count, points.reduce(0) { $0 + $1.y } / count)
        let spread = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        let slope = spread > 0 ? points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) } / spread : 0
        let level = meanY - slope * meanX
        let error = points.reduce(0) { $0 + ($1.y - level - slope * $1.x) * ($1.y - level - slope * $1.x) }
        return (level, slope, error)
    }

    /// The yardsticks' reader: at each poll, `target` is given the poll's time, the polls of the last `window` seconds
    /// and the level published last, and the reading among those polls nearest the level it returns is published
    /// (nothing where it returns nil, or where that reading is the level published).
    private func publishingNearest(
        within window: Double,
        target: (_ time: Double, _ recent: [(time: Double, level: Double)], _ last: Double?) -> Double?
    ) -> Published {
        var published = Published()
        for (index, poll) in polls.enumerated() {
            let recent = Array(polls[...index].filter { $0.time > poll.time - window })
            guard let level = target(poll.time, recent, published.changes.last?.level) else { continue }
            let nearest = recent.map(\.level).min { abs($0 - level) < abs($1 - level) }!
            if nearest != published.changes.last?.level { published.changes.append((poll.time, nearest)) }
        }
        return published
    }
}
