/// The thresholds of the hinge angle and posture, in degrees and seconds.
///
/// The posture bands (θ in degrees, each kept until θ leaves it by more than `bandHysteresis`):
/// closed [0, 10), laptop [10, 170), flat [170, 190], tent or stand (190, 330), tablet [330, 360].
/// Between 190° and 330° the base decides: face down (within `standEnterAngle` of it) is `stand`, else `tent`.
public struct PostureSettings: Sendable, Equatable {
    /// Tablet mode turns on when θ reaches this (ChromeOS uses about 200°).
    public var tabletModeOnAngle: Double = 200
    /// Tablet mode turns off when θ falls to this.
    public var tabletModeOffAngle: Double = 160
    /// θ cannot be read while gravity is within this angle of the hinge (a book held upright, hinge vertical).
    public var hingeVerticalAngle: Double = 25
    /// Once unreadable, θ is read again only when gravity is this far from the hinge (no flapping at the edge).
    public var hingeReadableAngle: Double = 30
    /// Time constant of the low-pass filter on both sensors' readings.
    public var filterTimeConstant: Double = 0.1
    /// A posture or tablet-mode change must be seen continuously for this long before it is committed.
    public var settleTime: Double = 0.1
    /// How far beyond a posture band θ must go before the posture is left.
    public var bandHysteresis: Double = 5
    /// Within this angle of face down, the base of an unfolded device is on its keys: `stand`, not `tent`.
    public var standEnterAngle: Double = 40
    /// A `stand` is kept until the base is more than this from face down.
    public var standExitAngle: Double = 50
    /// A raw angle this close to 0°/360° is where closed and folded meet: continuity decides which it is.
    public var wrapZone: Double = 30

    public init() {}

    /// Checks that the settings make sense together.
    public func validate() throws(ClassifierSettingsError) {
        func check(_ key: String, _ value: Double, _ range: ClosedRange<Double>) throws(ClassifierSettingsError) {
            guard value.isFinite, range.contains(value) else {
                throw ClassifierSettingsError(key: key, message: "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
        }
        try check("tablet-mode-on-angle", tabletModeOnAngle, 90...350)
        try check("tablet-mode-off-angle", tabletModeOffAngle, 10...340)
        try check("hinge-vertical-angle", hingeVerticalAngle, 0...60)
        try check("hinge-readable-angle", hingeReadableAngle, 0...70)
        try check("posture-filter-time-constant", filterTimeConstant, 0...2)
        try check("posture-settle-time", settleTime, 0...10)
        try check("posture-band-hysteresis", bandHysteresis, 0...20)
        try check("stand-enter-angle", standEnterAngle, 0...90)
        try check("stand-exit-angle", standExitAngle, 0...90)
        try check("wrap-zone", wrapZone, 0...60)
        guard tabletModeOffAngle < tabletModeOnAngle else {
            throw ClassifierSettingsError(
                key: "tablet-mode-off-angle",
                message: "must be below tablet-mode-on-angle (\(tabletModeOnAngle)), or tablet mode would flap"
            )
        }
        guard hingeReadableAngle >= hingeVerticalAngle else {
            throw ClassifierSettingsError(key: "hinge-readable-angle", message: "must be at least hinge-vertical-angle")
        }
        guard standExitAngle >= standEnterAngle else {
            throw ClassifierSettingsError(key: "stand-exit-angle", message: "must be at least stand-enter-angle")
        }
    }
}
