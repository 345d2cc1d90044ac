import OrientConfiguration
import OrientCore
import OrientSampleSource

/// The sensor service's slice of the settings: how samples become orientations and postures, when the sensor is
/// open, and how fast a live one is read. A change restarts the capture, which the source takes anew.
public struct SensorSettings: Sendable, Equatable {
    /// The engine each opened sensor gets; its mount matrix, when set, wins over the sensor's own.
    public var engine: EngineConfiguration
    public var sampling: SamplingPolicy
    /// The source's own slice, handed to it at each start.
    public var capture: CaptureSettings

    public init(engine: EngineConfiguration = EngineConfiguration(), sampling: SamplingPolicy = .onDemand, capture: CaptureSettings = CaptureSettings()) {
        self.engine = engine
        self.sampling = sampling
        self.capture = capture
    }
}
