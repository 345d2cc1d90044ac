import OrientCore

/// How samples become device orientations and postures; a reload may change it, which restarts the pipeline.
public struct PipelineSettings: Sendable, Equatable {
    public var classifier: ClassifierSettings
    /// Wins over the source's own mount matrix (the display's; a base sensor's matrix is the source's).
    public var mountMatrixOverride: MountMatrix?
    /// Applies to the display's and the base sensor's matrices alike.
    public var mountRepair: Bool
    /// The sensor is open while at least this many clients are subscribed: 0 always, 1 on demand.
    public var subscribersToRun: Int
    /// Tablet-mode thresholds and the rest of the posture's settings, for a source with a base sensor.
    public var posture: PostureSettings
    /// `nil`: ``ConvertibleEngine``'s default (tablet-mode with a base sensor, else always).
    public var rotateIn: RotateIn?

    public init(
        classifier: ClassifierSettings, mountMatrixOverride: MountMatrix?, mountRepair: Bool, subscribersToRun: Int,
        posture: PostureSettings = PostureSettings(), rotateIn: RotateIn? = nil
    ) {
        self.classifier = classifier
        self.mountMatrixOverride = mountMatrixOverride
        self.mountRepair = mountRepair
        self.subscribersToRun = subscribersToRun
        self.posture = posture
        self.rotateIn = rotateIn
    }
}
