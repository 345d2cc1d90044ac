/// The convertible half of the engine: the base sensor's mount matrix, the hinge angle and the posture.
///
/// Fed with each display reading (already in the display's device frame, as the orientation engine sees it)
/// and the base reading taken with it (in the base sensor's own frame).
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
    public var hingeAngle: Double? { estimator.angle }

    /// Feeds a display reading in the display's device frame and the base reading, in its sensor frame, taken
    /// with it.
    public mutating func feed(time: Double, display: Vector3, base: Vector3) throws(ClassifierError) -> Change {
        let angle = try estimator.feed(time: time, display: display, base: baseMountMatrix.apply(base))
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
