import OrientCore

/// What the running parts are configured from: the configuration, and the natural orientation decided from it.
public struct RunSettings: Sendable, Equatable {
    public var configuration: DaemonConfiguration
    /// The panel's natural orientation and where it came from (the setting, a replayed trace, or the panel found).
    public var panel: PanelDetection

    public init(_ configuration: DaemonConfiguration, panel: PanelDetection) {
        self.configuration = configuration
        self.panel = panel
    }

    /// The natural orientation as ``PanelDetection/choose(_:trace:panel:)`` decides it: the setting when it names
    /// one, else a replayed trace's own line, else the panel as `detected`.
    public init(_ configuration: DaemonConfiguration, detected: PanelDetection, traceNatural: NaturalOrientation?) {
        self.init(
            configuration,
            panel: PanelDetection.choose(configuration.naturalOrientation, trace: traceNatural) { detected })
    }
}
