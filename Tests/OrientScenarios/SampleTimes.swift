/// The sampling shared by every synthesised recording.
enum SampleTimes {
    /// Calls `body` for each sample time of `duration` seconds at `rate` Hz, each time jittered by up to `jitter`
    /// periods. The jitter is drawn from `random` just before each call, so a scenario's readings and its times
    /// come from one sequence.
    static func forEach(
        rate: Double, duration: Double, jitter: Double, random: inout SeededRandom,
        _ body: (Double, inout SeededRandom) -> Void
    ) {
        let period = 1 / rate
        var index = 0
        while true {
            let t = Double(index) * period + random.uniform(-jitter...jitter) * period
            index += 1
            if t < 0 { continue }
            guard t < duration else { break }
            body(t, &random)
        }
    }

    /// The index of the piece under way at `t`: the last whose start is at or before it (pieces in time order).
    static func piece<Placed>(at t: Double, in placed: [Placed], start: (Placed) -> Double) -> Int {
        var low = 0
        var high = placed.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if start(placed[mid]) <= t { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
