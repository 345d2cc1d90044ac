/// The convertible half of the engine: the base sensor's mount matrix, the hinge angle and the posture.
///
/// Fed with each display reading (already in the display's device frame, as the orientation engine sees it) and
/// what was read with it: the base reading (in the base sensor's own frame), a kernel hinge sensor's angle, or both.
///
/// Where a kernel hinge sensor is read, its angle is θ, as given: it reads the hinge where two accelerometers cannot
/// (the hinge axis pointing at the ground), and when it cannot tell either, θ is unknown and the posture holds. The
/// accelerometers are then only asked which way the base faces (stand or tent); with no base sensor, the base's
/// reading is the display's turned back by θ (``HingeGeometry/base(fromDisplay:hingeAngle:)``).
public struct PostureEngine: Sendable {
    /// What one pair of readings changed. `hingeAngle` is set when the angle rounds to another whole degree and
    /// is ``angleHysteresis`` or more from the one reported, or became known or unknown (`.some(nil)`).
    public struct Change: Sendable, Equatable {
        public let time: Double
        public var posture: Posture?
        public var tabletMode: Bool??
        public var hingeAngle: Double??

        public var isEmpty: Bool { posture == nil && tabletMode == nil && hingeAngle == nil }
    }

    /// The base matrix in use: the given one, or its handedness repair.
    public let baseMountMatrix: MountMatrix
    public let baseRepair: HandednessRepair
    public private(set) var estimator: HingeAngleEstimator
    public private(set) var tracker: PostureTracker
    /// A new whole degree is reported once the angle is this far from the one reported: a quarter degree past
    /// the rounding boundary, so that noise around a half degree does not publish every sample, while an angle
    /// that settles at 359.8° still reads 360 (with a full degree's margin it stayed at 359).
    public static let angleHysteresis = 0.75

    /// The angle last reported, rounded to a degree; `nil` while unknown.
    public private(set) var reportedAngle: Double?

    public init(
        baseMountMatrix: MountMatrix = .identity,
        repairHandedness: Bool = true,
        settings: PostureSettings = PostureSettings(),
        motionGate: ClassifierSettings = ClassifierSettings()
    ) throws(ClassifierSettingsError) {
        try settings.validate()
        let repair = baseMountMatrix.repairingHandedness()
        self.baseRepair = repair
        self.baseMountMatrix = repairHandedness ? repair.inUse : baseMountMatrix
        self.estimator = HingeAngleEstimator(settings: settings, motionGate: motionGate)
        self.tracker = PostureTracker(settings: settings)
    }

    public var posture: Posture { tracker.posture }
    public var tabletMode: Bool? { tracker.tabletMode }
    /// θ after the last reading: the kernel sensor's where there is one, else the accelerometers'.
    public private(set) var hingeAngle: Double?

    /// Feeds a display reading in the display's device frame and the base reading, in its sensor frame, taken
    /// with it.
    public mutating func feed(time: Double, display: Vector3, base: Vector3) throws(ClassifierError) -> Change {
        try feed(time: time, display: display, base: base, kernel: nil)
    }

    /// Feeds a display reading in the display's device frame with what was read beside it: the base reading in its
    /// sensor frame, the kernel hinge sensor's angle, or both (with neither, nothing changes).
    public mutating func feed(
        time: Double, display: Vector3, base: Vector3?, kernel: KernelHingeAngle?
    ) throws(ClassifierError) -> Change {
        let baseReading: Vector3? =
            if let base { baseMountMatrix.apply(base) }
            else if let theta = kernel?.degrees { HingeGeometry.base(fromDisplay: display, hingeAngle: theta) }
            else { nil }
        // The estimator smooths the base's reading even where the kernel gives θ: stand and tent are told by it.
        let measured = try baseReading.map { (reading) throws(ClassifierError) in
            try estimator.feed(time: time, display: display, base: reading)
        } ?? nil
        let angle = kernel.map { $0.degrees } ?? measured
        hingeAngle = angle
        let tracked = tracker.update(time: time, angle: angle, base: estimator.filteredBase)
        var change = Change(time: time, posture: tracked.posture)
        if let tabletMode = tracked.tabletMode { change.tabletMode = .some(tabletMode) }
        let rounded = angle.map { $0.rounded() }
        let moved: Bool =
            switch (rounded, reportedAngle) {
            case (nil, nil): false
            case (let now?, let was?): now != was && abs(angle! - was) >= Self.angleHysteresis
            default: true
            }
        if moved {
            reportedAngle = rounded
            change.hingeAngle = .some(rounded)
        }
        return change
    }

    /// The lid switch's state (SW_LID), when there is one: a shut lid settles the wrap at 0°.
    public mutating func setLidClosed(_ closed: Bool?) {
        estimator.lidClosed = closed
    }

    /// Forgets everything, as when either sensor goes away: posture and tablet mode are unknown again.
    /// - Returns: the changes this makes.
    public mutating func reset(time: Double) -> Change {
        var change = Change(time: time)
        if tracker.posture != .unknown { change.posture = .unknown }
        if tracker.tabletMode != nil { change.tabletMode = .some(nil) }
        if reportedAngle != nil { change.hingeAngle = .some(nil) }
        estimator.reset()
        tracker.reset()
        hingeAngle = nil
        reportedAngle = nil
        return change
    }
}

/// Where the screen turns with the device: everywhere, or only in tablet mode (as GNOME does with a firmware
/// tablet-mode switch).
public enum RotateIn: String, Sendable, CaseIterable, Codable {
    case always
    case tabletMode = "tablet-mode"
}
