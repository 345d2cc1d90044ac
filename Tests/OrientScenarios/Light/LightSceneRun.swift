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
            let count = Double(recent.count)
            let (meanTime, meanLevel) = (recent.map(\.time).reduce(0, +) / count, recent.map(\.level).reduce(0, +) / count)
            let spread = recent.map { ($0.time - meanTime) * ($0.time - meanTime) }.reduce(0, +)
            let slope = recent.map { ($0.time - meanTime) * ($0.level - meanLevel) }.reduce(0, +) / spread
            let now = meanLevel + slope * (time - meanTime)
            if let last, abs(now / max(last, 1) - 1) <= hysteresis { return nil }
            return now
        }
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
