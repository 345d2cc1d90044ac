import OrientCore
import OrientSensors

/// The three poses in order: the readings fed to ``PoseAcceptance``, the poses taken, and the matrices they give.
struct PoseSequence {
    let convertible: Bool
    var acceptance: PoseAcceptance
    private(set) var current = CalibrationPose.upright
    private var taken: [CalibrationPose: PoseMeasurement] = [:]
    /// The base sensor's last reading, paired with the display readings that follow it.
    private var latestBase: (time: Double, value: Vector3)?
    /// A base reading older than this (seconds) is not paired: the base sensor has stalled.
    static let pairing = 0.25

    init(convertible: Bool) {
        self.convertible = convertible
        acceptance = PoseAcceptance(needsBase: convertible)
    }

    var isComplete: Bool { taken.count == CalibrationPose.allCases.count }

    mutating func feedDisplay(_ sample: AccelSample) -> PoseDecision? {
        var base: Vector3?
        if convertible, let latestBase, abs(latestBase.time - sample.time) <= Self.pairing { base = latestBase.value }
        return acceptance.feed(CalibrationReading(time: sample.time, display: sample.acceleration, base: base))
    }

    mutating func feedBase(_ sample: AccelSample) {
        latestBase = (sample.time, sample.acceleration)
    }

    /// Says what `decision` means and moves on to the next pose when one was taken; `true` once the last one is.
    mutating func decide(_ decision: PoseDecision, say: (String) -> Void) -> Bool {
        switch decision {
        case .refused(let refusal):
            say(PoseText.refusal(refusal, pose: current, convertible: convertible))
            return false
        case .taken(let measurement):
            taken[current] = measurement
            let base = measurement.base.map { ", base \(PoseText.vector($0))" } ?? ""
            say("Pose \(current.rawValue) taken: display \(PoseText.vector(measurement.display))\(base) m/s².")
            guard let next = CalibrationPose(rawValue: current.rawValue + 1) else { return true }
            current = next
            say(PoseText.instruction(next, convertible: convertible))
            return false
        }
    }

    /// The matrices, each checked by its remaining pose.
    func results() throws(CalibrateFailure) -> (display: SensorCalibration, base: SensorCalibration?) {
        guard let display = MountCalibration.display(taken.mapValues(\.display), convertible: convertible) else {
            throw .check("the poses were too alike to give a matrix: nothing was written; run orientd calibrate again")
        }
        guard display.passed else {
            throw .check(PoseText.checkFailed(display, sensor: "the display sensor", convertible: convertible))
        }
        guard convertible else { return (display, nil) }
        guard let base = MountCalibration.base(taken.compactMapValues(\.base)) else {
            throw .check(
                "the base sensor's poses were too alike to give a matrix: nothing was written; run orientd calibrate again"
            )
        }
        guard base.passed else {
            throw .check(PoseText.checkFailed(base, sensor: "the base sensor", convertible: convertible))
        }
        return (display, base)
    }

    var report: [CalibrationReport.Pose] {
        CalibrationPose.allCases.compactMap { pose in
            taken[pose].map { measurement in
                func values(_ v: Vector3) -> [Double] { [v.x, v.y, v.z].map { ($0 * 1000).rounded() / 1000 } }
                return CalibrationReport.Pose(
                    pose: pose.rawValue, display: values(measurement.display), base: measurement.base.map(values))
            }
        }
    }
}
