import OrientCore

/// How samples become device orientations; a reload may change it, which restarts the pipeline.
public struct PipelineSettings: Sendable, Equatable {
    public var classifier: ClassifierSettings
    /// Wins over the source's own mount matrix.
    public var mountMatrixOverride: MountMatrix?
    public var mountRepair: Bool
    /// The sensor is open while at least this many clients are subscribed: 0 always, 1 on demand.
    public var subscribersToRun: Int

    public init(classifier: ClassifierSettings, mountMatrixOverride: MountMatrix?, mountRepair: Bool, subscribersToRun: Int) {
        self.classifier = classifier
        self.mountMatrixOverride = mountMatrixOverride
        self.mountRepair = mountRepair
        self.subscribersToRun = subscribersToRun
    }
}
