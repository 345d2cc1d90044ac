import OrientCore

/// The poses of a ``CalibrationPlan`` in order: the readings fed to ``PoseAcceptance``, what is said to the person,
/// the poses taken, and the matrices they give. Pure: the session feeds it the sensors' samples and Enter.
struct PoseSequence {
    let convertible: Bool
    let plan: [CalibrationPose]
    /// Enter can take a pose (standard input is a terminal): the instructions then say so.
    let readsEnter: Bool
    private var acceptance: PoseAcceptance
    /// The index in ``plan`` of the pose asked for now.
    private(set) var step = 0
    private var taken: [CalibrationPose: PoseMeasurement] = [:]
    /// The base sensor's last reading, paired with the display readings that follow it.
    private var latestBase: (time: Double, value: Vector3)?
    /// A base reading older than this (seconds) is not paired: the base sensor has stalled.
    static let pairing = 0.25

    init(convertible: Bool, readsEnter: Bool) {
        self.convertible = convertible
        self.readsEnter = readsEnter
        plan = CalibrationPlan.poses(convertible: convertible)
        // Pose 1 waits for a movement: where the device lies when calibrate starts is not a pose the person made.
        acceptance = PoseAcceptance(needsBase: convertible, waitsForMovement: true)
    }

    var current: CalibrationPose { plan[step] }
    var isComplete: Bool { taken.count == plan.count }

    /// What to do for the pose asked for now.
    var instruction: String { text.instruction(step: step) }

    /// Feeds a display sample, says what it decided, and returns `true` once the last pose is taken.
    mutating func display(_ sample: AccelSample, say: (String) -> Void) -> Bool {
        var base: Vector3?
        if convertible, let latestBase, abs(latestBase.time - sample.time) <= Self.pairing { base = latestBase.value }
        let reading = CalibrationReading(time: sample.time, display: sample.acceleration, base: base)
        guard let decision = acceptance.feed(reading) else { return false }
        return decide(decision, say: say)
    }

    mutating func base(_ sample: AccelSample) {
        latestBase = (sample.time, sample.acceleration)
    }

    /// Enter: takes the pose from the last half second at once; `true` once the last pose is taken.
    mutating func enter(say: (String) -> Void) -> Bool {
        decide(acceptance.takeNow(), say: say)
    }

    private var text: PoseText { PoseText(plan: plan, convertible: convertible, readsEnter: readsEnter) }

    /// Says what `decision` means and moves on to the next pose when one was taken; `true` once the last one is.
    private mutating func decide(_ decision: PoseDecision, say: (String) -> Void) -> Bool {
        switch decision {
        case .refused(let refusal):
            say(text.refusal(refusal, step: step))
            return false
        case .taken(let measurement):
            taken[current] = measurement
            say(text.taken(measurement, step: step))
            guard step + 1 < plan.count else { return true }
            step += 1
            say(instruction)
            return false
        }
    }

    /// The matrices, each checked by the poses that did not fit it.
    func results() throws(CalibrateFailure) -> (display: SensorCalibration, base: SensorCalibration?) {
        guard let display = MountCalibration.display(taken.mapValues(\.display), convertible: convertible) else {
            throw .check("the poses were too alike to give a matrix: nothing was written; run orientd calibrate again")
        }
        guard display.passed else { throw .check(text.checkFailed(display, sensor: "the display sensor")) }
        guard convertible else { return (display, nil) }
        guard let base = MountCalibration.base(taken.compactMapValues(\.base)) else {
            throw .check(
                "the base sensor's poses 1 and 2 were too alike to give a matrix (it lay flat in both: was pose 1 "
                    + "taken before the laptop stood open?): nothing was written; run orientd calibrate again")
        }
        guard base.passed else { throw .check(text.checkFailed(base, sensor: "the base sensor")) }
        return (display, base)
    }

    var report: [CalibrationReport.Pose] {
        plan.enumerated().compactMap { index, pose in
            taken[pose].map { measurement in
                func values(_ v: Vector3) -> [Double] { [v.x, v.y, v.z].map { ($0 * 1000).rounded() / 1000 } }
                return CalibrationReport.Pose(
                    pose: index + 1, name: pose.rawValue, display: values(measurement.display),
                    base: measurement.base.map(values))
            }
        }
    }
}
