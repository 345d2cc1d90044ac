import OrientCore

/// How samples become device orientations and postures; a reload may change it, which restarts the pipeline.
public struct PipelineSettings: Sendable, Equatable {
    /// The engine each opened sensor gets (its mount matrix override is the display's).
    public var engine: EngineConfiguration
    /// The sensor is open while at least this many clients are subscribed: 0 always, 1 on demand.
    public var subscribersToRun: Int

    public init(engine: EngineConfiguration, subscribersToRun: Int) {
        self.engine = engine
        self.subscribersToRun = subscribersToRun
    }
}
