import RealModule

/// The settings turned into squared magnitudes and cosines once, so that classifying a sample needs no
/// trigonometry and no square root but one.
struct ClassifierThresholds: Sendable {
    let minimumMagnitudeSquared: Double
    let maximumMagnitudeSquared: Double
    let freeFallMagnitudeSquared: Double
    /// Face up/down when z² ≥ this × |a|²: sin² of the tilt from vertical at which the screen is within
    /// `flatEnterAngle` of horizontal.
    let flatEnterZFraction: Double
    /// Stay face up/down while z² ≥ this × |a|².
    let flatExitZFraction: Double
    /// Leave an upright orientation when gravity's in-plane component along its direction falls below this
    /// fraction of the in-plane length: cos(45° + gap/2).
    let leaveCosine: Double

    init(_ settings: ClassifierSettings) {
        let g = settings.gravity
        let low = max(0, g - settings.accelerationTolerance)
        let high = g + settings.accelerationTolerance
        minimumMagnitudeSquared = max(low * low, settings.freeFallMagnitude * settings.freeFallMagnitude)
        maximumMagnitudeSquared = high * high
        freeFallMagnitudeSquared = settings.freeFallMagnitude * settings.freeFallMagnitude
        flatEnterZFraction = Self.squaredCosine(degrees: settings.flatEnterAngle)
        flatExitZFraction = Self.squaredCosine(degrees: settings.flatExitAngle)
        leaveCosine = Double.cos((45 + settings.hysteresisGap / 2) * .pi / 180)
    }

    /// The screen is `angle` from horizontal when gravity is `angle` from the z axis: z/|a| = cos(angle).
    private static func squaredCosine(degrees: Double) -> Double {
        let c = Double.cos(degrees * .pi / 180)
        return c * c
    }
}
