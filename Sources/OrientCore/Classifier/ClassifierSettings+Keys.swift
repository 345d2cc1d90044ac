extension ClassifierSettings {
    /// The settings by their kebab-case names, as used by `--classifier NAME=VALUE` and the configuration file.
    public enum Key: String, CaseIterable, Sendable {
        case filterTimeConstant = "filter-time-constant"
        case maxSampleGap = "max-sample-gap"
        case gravity
        case accelerationTolerance = "acceleration-tolerance"
        case freeFallMagnitude = "free-fall-magnitude"
        case motionHoldoff = "motion-holdoff"
        case hysteresisGap = "hysteresis-gap"
        case flatEnterAngle = "flat-enter-angle"
        case flatExitAngle = "flat-exit-angle"
        case settleTime = "settle-time"

        public var unit: String {
            switch self {
            case .filterTimeConstant, .maxSampleGap, .motionHoldoff, .settleTime: "s"
            case .gravity, .accelerationTolerance, .freeFallMagnitude: "m/s²"
            case .hysteresisGap, .flatEnterAngle, .flatExitAngle: "degrees"
            }
        }

        /// The values accepted for this setting.
        public var range: ClosedRange<Double> {
            switch self {
            case .filterTimeConstant: 0...2
            case .maxSampleGap: 0.01...60
            case .gravity: 0.001...1e6
            case .accelerationTolerance, .freeFallMagnitude: 0...1e6
            case .motionHoldoff, .settleTime: 0...10
            case .hysteresisGap: 0...80
            case .flatEnterAngle, .flatExitAngle: 1...60
            }
        }

        var rangeText: String { "\(range.lowerBound)...\(range.upperBound) \(unit)" }

        /// A one-line summary (short enough for an 80-column help screen).
        public var summary: String {
            switch self {
            case .filterTimeConstant: "low-pass filter time constant"
            case .maxSampleGap: "a longer gap restarts the filter"
            case .gravity: "size of 1 g; the motion gate is centred on it"
            case .accelerationTolerance: "further than this from 1 g means moving"
            case .freeFallMagnitude: "smaller readings mean free fall"
            case .motionHoldoff: "no commit until this long after motion"
            case .hysteresisGap: "dead band around each 45-degree boundary"
            case .flatEnterAngle: "face up/down within this of level"
            case .flatExitAngle: "upright again beyond this from level"
            case .settleTime: "a new orientation must hold this long"
            }
        }
    }

    public subscript(key: Key) -> Double {
        get {
            switch key {
            case .filterTimeConstant: filterTimeConstant
            case .maxSampleGap: maxSampleGap
            case .gravity: gravity
            case .accelerationTolerance: accelerationTolerance
            case .freeFallMagnitude: freeFallMagnitude
            case .motionHoldoff: motionHoldoff
            case .hysteresisGap: hysteresisGap
            case .flatEnterAngle: flatEnterAngle
            case .flatExitAngle: flatExitAngle
            case .settleTime: settleTime
            }
        }
        set {
            switch key {
            case .filterTimeConstant: filterTimeConstant = newValue
            case .maxSampleGap: maxSampleGap = newValue
            case .gravity: gravity = newValue
            case .accelerationTolerance: accelerationTolerance = newValue
            case .freeFallMagnitude: freeFallMagnitude = newValue
            case .motionHoldoff: motionHoldoff = newValue
            case .hysteresisGap: hysteresisGap = newValue
            case .flatEnterAngle: flatEnterAngle = newValue
            case .flatExitAngle: flatExitAngle = newValue
            case .settleTime: settleTime = newValue
            }
        }
    }

    /// Applies one `name=value` assignment, e.g. `settle-time=0.08`. The result is not validated as a whole:
    /// call ``validate()`` once all assignments are in.
    public mutating func apply(assignment: String) throws(ClassifierSettingsError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw ClassifierSettingsError(key: assignment, message: "expected NAME=VALUE")
        }
        let name = String(assignment[..<equals].trimmingWhitespace())
        let valueText = assignment[assignment.index(after: equals)...].trimmingWhitespace()
        guard let key = Key(rawValue: name) else {
            let known = Key.allCases.map(\.rawValue).joined(separator: ", ")
            throw ClassifierSettingsError(key: name, message: "unknown setting; known settings: \(known)")
        }
        guard let value = Double(valueText), value.isFinite else {
            throw ClassifierSettingsError(key: name, message: "\"\(valueText)\" is not a number")
        }
        self[key] = value
    }
}
