import OrientCore

/// What the session says to the person holding the device, pose by pose.
struct PoseText {
    let plan: [CalibrationPose]
    let convertible: Bool
    /// Enter can take a pose.
    let readsEnter: Bool

    /// "Pose 2", counted from 1.
    private func number(_ step: Int) -> String { "Pose \(step + 1)" }

    private func number(of pose: CalibrationPose) -> Int { (plan.firstIndex(of: pose) ?? 0) + 1 }

    func instruction(step: Int) -> String {
        let header = "\(number(step)) of \(plan.count)"
        switch (plan[step], convertible) {
        case (.upright, false):
            return "\(header): stand the device upright the way the picture is upright with rotation turned off (its "
                + "natural orientation), propped square against something, and let go."
        case (.upright, true):
            return
                "\(header): open the lid to about 90-130 degrees and stand it on a table, as a laptop is used, and let go."
        case (.leftEdgeUp, false):
            return "\(header): turn it a quarter turn to stand on its right edge, left edge up, screen still facing you."
        case (.leftEdgeUp, true):
            return "\(header): still open, stand it on its right side (left side up), and let go."
        case (.upsideDown, _):
            return "\(header): turn it another quarter turn the same way, to stand upside down on its top edge, screen "
                + "still facing you."
        case (.flat, false):
            return "\(header): lay it flat on the table, screen up."
        case (.flat, true):
            return "\(header): fold it into a tablet and lay it on the table, screen up."
        }
    }

    /// Which pose a step was read as, so that the person sees it at once if it is not the one they made.
    func taken(_ measurement: PoseMeasurement, step: Int) -> String {
        let base = measurement.base.map { ", base \(Self.vector($0))" } ?? ""
        return "\(number(step)) taken as \(plan[step].name): display \(Self.vector(measurement.display))\(base) m/s²."
    }

    func refusal(_ refusal: PoseRefusal, step: Int) -> String {
        let prefix = "\(number(step)) not taken: "
        switch refusal {
        case .notMoved:
            let already =
                readsEnter
                ? "or press Enter if it is in pose 1 already" : "or, if it is in pose 1 already, tilt it away and back"
            return "Waiting for pose 1: the device has not moved since calibrate started, and where it happened to lie "
                + "then is not taken as a pose. Move it into pose 1 and let go, \(already)."
        case .tooCloseToPrevious(let degrees):
            return prefix
                + "it is only \(Int(degrees.rounded()))° from pose \(step); it needs a quarter turn. "
                + instruction(step: step)
        case .turnedTooFar(let degrees):
            return prefix
                + "it is \(Int(degrees.rounded()))° from pose \(step), more than a quarter turn. "
                + instruction(step: step)
        case .moving(let spread):
            return prefix
                + "the device is moving (readings vary by \(Self.format(spread)) m/s²). Hold it still for a second."
        case .notOneG(let g, let base):
            return prefix
                + "the \(base ? "base" : "display") sensor reads \(Self.format(g)) g while still, far from 1 g. "
                + "Set the device down and keep it still; if this goes on, its driver's scale is wrong (see orientd doctor)."
        case .noReadings:
            return prefix
                + "no readings yet\(convertible ? " from both sensors" : ""); wait a moment and press Enter again."
        }
    }

    /// What to do when a pose disagrees with the matrix measured from two others.
    func checkFailed(_ result: SensorCalibration, sensor: String) -> String {
        let failed = result.checks.filter { !$0.passed }
        let readings = failed.map {
            "\(Self.vector($0.reading)) in pose \(number(of: $0.pose)) (\($0.pose.name))"
        }
        let read = "with the measured matrix \(result.matrix), \(sensor) read \(readings.joined(separator: " and "))"
        let advice: String
        switch failed.map(\.pose) {
        case [.flat] where !convertible && failed[0].reading.z > 0.5:
            advice =
                "face down instead of up: in pose 2 it probably stood on its left edge (right edge up) instead of its right"
        case [.flat] where convertible && failed[0].reading.z < -0.5:
            advice =
                "keys up instead of down: in pose 3 it was probably opened flat instead of folded into a tablet, or in "
                + "pose 1 it stood on its keys (as a stand) instead of open on its base"
        case [.flat]:
            advice = "not flat: a pose was probably held askew"
        case [.upright]:
            advice = "not standing open: in pose 2 it probably stood on its left side, or a pose was held askew"
        default:
            advice =
                "so the poses do not fit one mounting: most likely a pose was taken before you made pose 1 (the device "
                + "set down somewhere first), or the poses were made in another order"
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
