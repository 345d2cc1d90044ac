/// Round tick values for the plot's axes.
enum AxisTicks {
    /// A step of 1, 2 or 5 × 10ⁿ giving at most about `count` ticks over `span`.
    static func decimalStep(span: Double, count: Int) -> Double {
        guard span.isFinite, span > 0, count > 0 else { return 1 }
        // Below a nanosecond or a nano-m/s² there is nothing to tell apart; it also keeps the loops short.
        let rough = max(span / Double(count), 1e-9)
        var power = 1.0
        while power > rough { power /= 10 }
        while power * 10 <= rough { power *= 10 }
        return [1, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? power * 10
    }

    /// A step in seconds that reads well on a clock: decimal below a second, then 1, 2, 5, 10, 15 and 30 seconds,
    /// the same in minutes, then whole hours.
    static func timeStep(span: Double, count: Int) -> Double {
        guard span.isFinite, span > 0, count > 0 else { return 1 }
        let rough = span / Double(count)
        if rough <= 1 { return decimalStep(span: span, count: count) }
        let clock: [Double] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
        if let step = clock.first(where: { $0 >= rough }) { return step }
        return 3600 * decimalStep(span: span / 3600, count: count)
    }

    /// The multiples of `step` within `lower...upper`.
    static func values(from lower: Double, to upper: Double, step: Double) -> [Double] {
        guard step > 0, lower.isFinite, upper.isFinite, upper >= lower else { return [] }
        var values: [Double] = []
        var index = (lower / step).rounded(.up)
        // Bounded, whatever the inputs: an axis never needs more ticks than this.
        while index * step <= upper + step * 1e-9, values.count < 1000 {
            values.append(index * step)
            index += 1
        }
        return values
    }

    /// A time label: seconds below a minute's step (with a decimal below a second's), else m:ss or h:mm:ss.
    static func timeLabel(_ seconds: Double, step: Double) -> String {
        // Beyond the clock (a trace with absurd times) the plain number still says where the tick is.
        guard seconds.magnitude < 1e12 else { return "\(seconds) s" }
        if step < 60 {
            return SVGNumber.fixed(seconds, decimals: step < 1 ? (step < 0.1 ? 2 : 1) : 0) + " s"
        }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" }
        return "\(minutes):\(twoDigits(secs))"
    }
}
