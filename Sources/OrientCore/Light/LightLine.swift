/// A light level and when it was read, in seconds on any monotonic clock.
struct LightSample: Sendable, Equatable {
    var level: Double
    var time: Double
}

/// Where a line through light samples puts the level: Theil and Sen's line, whose slope is the median of the slopes
/// between every two samples and which passes through the median of where each sample puts the level, so that a
/// reading that noise or a short shadow threw off moves it little. ``LightFilter`` draws it for drifts and trends.
enum LightLine {
    /// A line's slopes are taken between at most this many points: their count grows with the square of the points, and
    /// a sensor whose integration time is 0.1 s is read ten times a second, 70 readings in a drift's window.
    static let slopePoints = 16

    /// Where a line through `samples` puts the level at `time`, and the standard error of that level.
    static func level(through samples: [LightSample], at time: Double) -> (level: Double, error: Double) {
        let points = pointsForSlopes(of: samples)
        var slopes: [Double] = []
        for (index, earlier) in points.enumerated() {
            for later in points[(index + 1)...] where later.time > earlier.time {
                slopes.append((later.level - earlier.level) / (later.time - earlier.time))
            }
        }
        let slope = slopes.isEmpty ? 0 : slopes.middle
        let levels = samples.map { $0.level + slope * (time - $0.time) }
        let level = levels.middle
        // The readings' scatter about the line as a standard deviation, 1.4826 times their median distance from it; a
        // line's level at the end of its readings is known to about twice that over the square root of their count.
        let scatter = 1.4826 * levels.map { abs($0 - level) }.middle
        return (level, 2 * scatter / Double(samples.count).squareRoot())
    }

    /// `samples` as they are, up to ``slopePoints`` of them; past that, the median level of each run of samples in a
    /// row, at its middle sample's time, so many to a run that there are at most ``slopePoints`` runs.
    private static func pointsForSlopes(of samples: [LightSample]) -> [LightSample] {
        guard samples.count > slopePoints else { return samples }
        let size = (samples.count + slopePoints - 1) / slopePoints
        return stride(from: 0, to: samples.count, by: size).map { start in
            let run = samples[start..<min(start + size, samples.count)]
            return LightSample(level: run.map(\.level).middle, time: run[run.startIndex + (run.count - 1) / 2].time)
        }
    }
}

extension [Double] {
    /// The middle value (the lower of the two middle ones for an even count): one of the values, never an average. The
    /// array must not be empty.
    var middle: Double { sorted()[(count - 1) / 2] }
}
