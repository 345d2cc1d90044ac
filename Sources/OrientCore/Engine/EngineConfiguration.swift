/// Everything that decides how samples become orientations and postures, in one value: the daemon, `classify`,
/// `plot`, `doctor` and `record` all build their engines from one of these, so a setting reaches every one.
///
/// What is shown (masks, the preferred orientation, the lock) is not here: the engine's interface tracker is
/// passed to ``makeEngine(displayMatrix:baseMatrix:hasHinge:tracker:)`` by the tools; the daemon passes none, since it
/// resolves the interface per view (the system's and each client's) in its publisher.
public struct EngineConfiguration: Sendable, Equatable {
    public var classifier = ClassifierSettings()
    /// A convertible's hinge and tablet-mode thresholds.
    public var posture = PostureSettings()
    /// Wins over the display sensor's own mount matrix (the trace's, udev's or sysfs').
    public var mountMatrix: MountMatrix?
    /// Wins over the base (keyboard) sensor's own mount matrix.
    public var baseMountMatrix: MountMatrix?
    /// Replace each mount matrix's z row by x × y (most published matrices are mirror images).
    public var mountRepair = true
    /// On a convertible, where the screen turns with the device; `nil`: ``ConvertibleEngine``'s default.
    public var rotateIn: RotateIn?
    /// What the panel's poses are called (decided from the `natural-orientation` setting, the panel or a trace).
    public var natural: NaturalOrientation = .portrait

    public init() {}

    /// Checks the settings that must agree with each other.
    public func validate() throws(ClassifierSettingsError) {
        try classifier.validate()
        try posture.validate()
    }

    /// The engine for one device: the display's orientation, and with a base sensor or a kernel hinge sensor its
    /// hinge and posture too.
    ///
    /// - Parameters:
    ///   - displayMatrix: the display sensor's own matrix, used unless ``mountMatrix`` overrides it.
    ///   - baseMatrix: the base sensor's own matrix, or `nil` when the device has no base sensor.
    ///   - hasHinge: whether a kernel hinge sensor is read beside the display's.
    ///   - tracker: the interface orientation's rules (the system mask, preferred orientation and lock); nil for
    ///     device orientations alone.
    public func makeEngine(
        displayMatrix: MountMatrix, baseMatrix: MountMatrix?, hasHinge: Bool = false,
        tracker: InterfaceOrientationTracker? = .unrestricted
    ) throws(ClassifierSettingsError) -> ConvertibleEngine {
        let orientation = try OrientationEngine(
            mountMatrix: mountMatrix ?? displayMatrix, repairHandedness: mountRepair, settings: classifier,
            natural: natural, tracker: tracker)
        var posture: PostureEngine?
        if baseMatrix != nil || hasHinge {
            posture = try PostureEngine(
                baseMountMatrix: baseMountMatrix ?? baseMatrix ?? .identity, repairHandedness: mountRepair,
                settings: self.posture, motionGate: classifier)
        }
        return ConvertibleEngine(orientation: orientation, posture: posture, rotateIn: rotateIn)
    }

    /// The display matrix in use for a sensor whose own matrix is `displayMatrix`, before any repair.
    public func displayMatrix(given displayMatrix: MountMatrix) -> MountMatrix { mountMatrix ?? displayMatrix }
}
