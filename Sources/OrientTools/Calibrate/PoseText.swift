import OrientCore

/// What the session says to the person holding the device.
enum PoseText {
    static func instruction(_ pose: CalibrationPose, convertible: Bool) -> String {
        let step = "Pose \(pose.rawValue) of 3"
        switch (pose, convertible) {
        case (.upright, false):
            return "\(step): stand the device upright the way the picture is upright with rotation turned off (its "
                + "natural orientation), propped square against something, and let go."
        case (.upright, true):
            return
                "\(step): open the lid to about 90-130 degrees and stand it on a table, as a laptop is used, and let go."
        case (.leftEdgeUp, false):
            return "\(step): turn it a quarter turn to stand on its right edge, left edge up, screen still facing you."
        case (.leftEdgeUp, true):
            return "\(step): still open, stand it on its right side (left side up), and let go."
        case (.flat, false):
            return "\(step), the check: lay it flat on the table, screen up."
        case (.flat, true):
            return "\(step), the check: open it flat or fold it into a tablet, and lay it on the table, screen up."
        }
    }

    static func refusal(_ refusal: PoseRefusal, pose: CalibrationPose, convertible: Bool) -> String {
        let prefix = "Pose \(pose.rawValue) not taken: "
        switch refusal {
        case .tooCloseToPrevious(let degrees):
            return prefix
                + "it is only \(Int(degrees.rounded()))° from pose \(pose.rawValue - 1); it needs a quarter turn. "
                + instruction(pose, convertible: convertible)
        case .turnedTooFar(let degrees):
            return prefix
                + "it is \(Int(degrees.rounded()))° from pose \(pose.rawValue - 1), more than a quarter turn. "
                + instruction(pose, convertible: convertible)
        case .moving(let spread):
            return prefix
                + "the device is moving (readings vary by \(format(spread)) m/s²). Hold it still for a second."
        case .notOneG(let g, let base):
            return prefix + "the \(base ? "base" : "display") sensor reads \(format(g)) g while still, far from 1 g. "
                + "Set the device down and keep it still; if this goes on, its driver's scale is wrong (see orientd doctor)."
        case .noReadings:
            return prefix
                + "no readings yet\(convertible ? " from both sensors" : ""); wait a moment and press Enter again."
        }
    }

    /// What to do when the check pose disagrees with the matrix measured from the other two.
    static func checkFailed(_ result: SensorCalibration, sensor: String, convertible: Bool) -> String {
        let read =
            "with the measured matrix \(result.matrix), \(sensor) read \(vector(result.checkReading)) in pose \(result.checkPose.rawValue)"
        let advice: String
        switch result.checkPose {
        case .flat where result.checkReading.z > 0.5:
            advice =
                "face down instead of up: in pose 2 it probably stood on its left edge (right edge up) instead of its right"
        case .flat:
            advice = "not flat: a pose was probably held askew"
        case .upright, .leftEdgeUp:
            advice = "not standing open: in pose 2 it probably stood on its left side, or a pose was held askew"
        }
        return "The check failed: \(read), \(advice). Nothing was written; run orientd calibrate again."
    }

    static func vector(_ v: Vector3) -> String { "(\(format(v.x)), \(format(v.y)), \(format(v.z)))" }

    /// Two decimals, no "-0".
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded == 0 ? 0 : rounded)
    }
}
