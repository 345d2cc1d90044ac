import OrientCore

/// What the live source's `GravityCalibrator` learned: readings at rest measured `restMagnitude`, so every
/// reading is multiplied by `factor` to read 1 g at rest.
public struct GravityCorrection: Sendable, Equatable {
    /// 1 g in m/s², what readings at rest are scaled to.
    public static let standardGravity = 9.80665

    /// The mean magnitude at rest: m/s² at the published scale, or raw units when the driver gives no scale.
    public var restMagnitude: Double
    /// What every reading (after the published scale, if any) is multiplied by.
    public var factor: Double
    /// The driver's scale, per axis; `nil` when it gives none.
    public var publishedScale: Vector3?

    public init(restMagnitude: Double, factor: Double, publishedScale: Vector3?) {
        self.restMagnitude = restMagnitude
        self.factor = factor
        self.publishedScale = publishedScale
    }

    /// For the log and `doctor`, naming the device as `accel_3d (iio:device0)`:
    /// "accel_3d (iio:device0): readings at rest are 26.1 g at the published scale 10; treating them as 1 g
    /// (correction ×0.0383)".
    public func explanation(device: String) -> String {
        guard let publishedScaleText else {
            return "\(device): readings at rest measure \(Self.format(restMagnitude, digits: 4)) in the driver's units (it gives no scale); "
                + "treating them as 1 g (scale ×\(Self.format(factor)))"
        }
        return "\(device): readings at rest are \(Self.format(restMagnitude / Self.standardGravity)) g "
            + "at the published scale \(publishedScaleText); treating them as 1 g (correction ×\(Self.format(factor)))"
    }

    /// The driver's scale as one figure when the axes share it (`10`), else per axis (`(0.001, 0.001, 0.002)`).
    public var publishedScaleText: String? {
        guard let scale = publishedScale else { return nil }
        let axes = [scale.x, scale.y, scale.z].map { Self.format($0, digits: 6) }
        return Set(axes).count == 1 ? axes[0] : "(\(axes.joined(separator: ", ")))"
    }

    /// `value` to `digits` significant digits, without a trailing ".0": 0.0383, 26.1, 1000, 10.
    public static func format(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite, value != 0 else { return "\(value)" }
        var magnitude = abs(value)
        var decade = 0
        while magnitude >= 10 { magnitude /= 10; decade += 1 }
        while magnitude < 1 { magnitude *= 10; decade -= 1 }
        let exponent = decade - (digits - 1)
        let power = (0..<abs(exponent)).reduce(1.0) { product, _ in product * 10 }
        // Divide or multiply by an exact power of ten, so that 0.0383 prints as 0.0383, not 0.038299999999999994.
        let rounded = exponent < 0 ? (value * power).rounded() / power : (value / power).rounded() * power
        let text = "\(rounded)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
