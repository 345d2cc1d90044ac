import Foundation
import OrientCore

/// A steady room of 200 lux with no shadow: the sensor's noise and, if asked, flicker's slow beat, nothing else.
/// Publishing every change, a reader polling every 0.8 s hears about 73 levels a minute; the light filter's drift rule
/// must not turn that noise or that beat into levels.
public enum SteadyRoom {
    /// The levels a minute the filter and every change publish, over `draws` rooms of 80 s, each counted after its
    /// first 20 s (the drift's window filling and the first level settling). `beat`: flicker aliased by the sensor, as
    /// a fraction of the level, over `beatPeriod` seconds, at a phase each draw picks.
    public static func levelsAMinute(
        draws: Int, noise: Double = 0.05, beat: Double = 0, beatPeriod: Double = 8
    ) -> (filtered: Double, everyChange: Double) {
        var (filtered, every) = (0, 0)
        for draw in 0..<draws {
            var random = SeededRandom(seed: UInt64(draw) + 1)
            var filter = LightFilter(threshold: 0.2)
            var (time, last) = (random.uniform(0...0.8), -1.0)
            let phase = beat > 0 ? random.uniform(0...beatPeriod) : 0
            while time < 80 {
                let flicker = 1 + beat * sin(2 * .pi * (time + phase) / beatPeriod)
                let level = (200 * flicker * (1 + random.gaussian(sigma: noise))).rounded()
                if filter.take(level, at: time).publish != nil, time >= 20 { filtered += 1 }
                if level != last, time >= 20 { every += 1 }
                last = level
                time += 0.8
            }
        }
        return (Double(filtered) / Double(draws), Double(every) / Double(draws))
    }
}
