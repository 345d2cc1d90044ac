/// The whole engine for one sensor: mount matrix, classifier and, given a tracker, the interface orientation.
///
/// Feed it samples in the sensor's own frame; it returns an ``Change`` whenever the committed device orientation
/// changes (and with it, possibly, the interface orientation under the tracker's rules). The daemon gives it no
/// tracker: its publisher resolves the system's view and each client's from the device orientation, once each.
public struct OrientationEngine: Sendable {
    /// One committed change: the trace time of the sample that committed it and the new orientations.
    public struct Change: Sendable, Equatable {
        public let time: Double
        public let device: DeviceOrientation
        /// nil from an engine without a tracker.
        public let interface: InterfaceOrientation?
    }

    /// The matrix in use: the given one, or its handedness repair when that was asked for.
    public let mountMatrix: MountMatrix
    /// What the handedness repair did to the given matrix.
    public let repair: HandednessRepair
    public private(set) var classifier: OrientationClassifier
    /// The interface orientation's rules; nil where the caller resolves the interface itself.
    public private(set) var tracker: InterfaceOrientationTracker?
    /// The classifier finds the panel's pose; this names it (``NaturalOrientation``).
    public let natural: NaturalOrientation

    public init(
        mountMatrix: MountMatrix = .identity,
        repairHandedness: Bool = true,
        settings: ClassifierSettings = ClassifierSettings(),
        natural: NaturalOrientation = .portrait,
        tracker: InterfaceOrientationTracker?
    ) throws(ClassifierSettingsError) {
        let repair = mountMatrix.repairingHandedness()
        self.repair = repair
        self.mountMatrix = repairHandedness ? repair.inUse : mountMatrix
        self.classifier = try OrientationClassifier(settings: settings)
        self.natural = natural
        self.tracker = tracker
    }

    public var device: DeviceOrientation { natural.renamed(fromPanelFrame: classifier.orientation) }
    public var interface: InterfaceOrientation? { tracker?.interface }

    /// Feeds one sample in the sensor's frame.
    @inlinable
    public mutating func feed(_ sample: AccelSample) throws(ClassifierError) -> Change? {
        let inDeviceFrame = AccelSample(time: sample.time, acceleration: mountMatrix.apply(sample.acceleration))
        return try feedDeviceFrame(inDeviceFrame)
    }

    /// Holds the interface upright for the keyboard (out of tablet mode under `rotate-in = tablet-mode`), or
    /// releases it. Returns the change when the interface orientation moved.
    public mutating func setHeldUpright(_ held: Bool, time: Double) -> Change? {
        guard tracker?.setHeldUpright(held, upright: natural.deviceOrientation(for: .normal)) == true else { return nil }
        return Change(time: time, device: device, interface: interface)
    }

    /// What a lone reading in the device frame shows, named by the panel's natural orientation
    /// (``OrientationClassifier/firstGuess(_:)``).
    public func firstGuess(deviceFrame a: Vector3) -> DeviceOrientation {
        natural.renamed(fromPanelFrame: classifier.firstGuess(a))
    }

    /// Feeds one sample already in the device frame.
    public mutating func feedDeviceFrame(_ sample: AccelSample) throws(ClassifierError) -> Change? {
        guard let pose = try classifier.feed(sample) else { return nil }
        let device = natural.renamed(fromPanelFrame: pose)
        tracker?.update(device: device)
        return Change(time: sample.time, device: device, interface: interface)
    }
}
