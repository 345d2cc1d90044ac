/// Numbers as SVG wants them: short, with `.` as the decimal separator whatever the locale, and always finite.
enum SVGNumber {
    /// Pixel coordinates: a tenth of a pixel is finer than any screen shows.
    static func coordinate(_ value: Double) -> String { fixed(value, decimals: 1) }

    /// `value` rounded to `decimals` places, without trailing zeros ("12.5", "3", "-0.25").
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Anything a plot could draw is far inside this; a runaway value is pinned rather than trapping.
        let limit = 1e15 / scale
        let clamped = value.isNaN ? 0 : min(max(value, -limit), limit)
        let units = Int((clamped * scale).rounded())
        let magnitude = units.magnitude
        let whole = magnitude / UInt(scale)
        var fraction = magnitude % UInt(scale)
        var text = units < 0 ? "-\(whole)" : "\(whole)"
        guard fraction > 0 else { return text }
        var places = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: places - digits.count) + digits
        return text
    }
}
