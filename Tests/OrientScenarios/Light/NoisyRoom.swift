import OrientCore

/// A steady room of 200 lux whose sensor adds 5 % noise and nothing else: no shadow, no flicker. Publishing every
/// change, a reader polling every 0.8 s hears about 73 levels a minute; the light filter's drift rule must not turn
/// that noise into levels.
public enum NoisyRoom {
    /// The levels a minute the filter and every change publish, over `draws` rooms of 80 s, each counted after its
    /// first 20 s (the drift's window filling and the first level settling).
    public static func levelsAMinute(draws: Int) -> (filtered: Double, everyChange: Double) {
        var (filtered, every) = (0, 0)
        for draw in 0..<draws {
            var random = SeededRandom(seed: UInt64(draw) + 1)
            var filter = LightFilter(threshold: 0.2)
            var (time, last) = (random.uniform(0...0.8), -1.0)
            while time < 80 {
                let level = (200 * (1 + random.gaussian(sigma: 0.05))).rounded()
                if filter.take(level, at: time).publish != nil, time >= 20 { filtered += 1 }
                if level != last, time >= 20 { every += 1 }
                last = level
                time += 0.8
            }
        }
        return (Double(filtered) / Double(draws), Double(every) / Double(draws))
    }
}
