/// Every threshold and time the classifier uses, with defaults tuned by the scenario suite.
///
/// Angles are in degrees, times in seconds, accelerations in m/s². The defaults start from Android's
/// WindowOrientationListener and were tuned so that, at 10 to 200 Hz, holds are classified correctly, nothing
/// flaps, and a deliberate rotation is committed within 200 ms of the hand coming to rest (95th percentile).
public struct ClassifierSettings: Sendable, Equatable {
    /// Time constant of the first-order low-pass filter applied to the samples.
    public var filterTimeConstant: Double = 0.08
    /// A gap between samples longer than this restarts the filter from the next sample.
    public var maxSampleGap: Double = 1.0
    /// The size of 1 g; the magnitude gate is centred on it.
    public var gravity: Double = 9.80665
    /// A sample whose magnitude is further than this from `gravity` means the device is being moved or shaken.
    public var accelerationTolerance: Double = 4.0
    /// A sample whose magnitude is below this means free fall.
    public var freeFallMagnitude: Double = 1.0
    /// After the last shaken or free-falling sample, nothing is committed for this long.
    public var motionHoldoff: Double = 0.25
    /// Width of the band around each 45-degree boundary between upright orientations in which nothing changes:
    /// leaving an upright orientation takes a turn of 45 + gap/2 degrees from its centre.
    public var hysteresisGap: Double = 45
    /// Face up or down once the screen is within this many degrees of horizontal.
    public var flatEnterAngle: Double = 15
    /// Back to upright once the screen is more than this many degrees from horizontal (hysteresis).
    public var flatExitAngle: Double = 25
    /// A new orientation must be seen continuously for this long before it is committed.
    public var settleTime: Double = 0.04

    public init() {}

    /// Checks that the settings make sense together.
    public func validate() throws(ClassifierSettingsError) {
        for key in ClassifierSettings.Key.allCases {
            let value = self[key]
            guard value.isFinite, key.range.contains(value) else {
                throw ClassifierSettingsError(key: key.rawValue, message: "\(value) is outside \(key.rangeText)")
            }
        }
        guard flatExitAngle >= flatEnterAngle else {
            throw ClassifierSettingsError(
                key: Key.flatExitAngle.rawValue,
                message: "must be at least flat-enter-angle (\(flatEnterAngle)), or face up/down would flap"
            )
        }
        guard accelerationTolerance < gravity else {
            throw ClassifierSettingsError(key: Key.accelerationTolerance.rawValue, message: "must be below gravity")
        }
    }
}

/// A classifier setting that is unknown, malformed or out of range.
public struct ClassifierSettingsError: Error, Equatable, CustomStringConvertible {
    public let key: String
    public let message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "classifier setting \(key): \(message)" }
}
