import Logging
import OrientCore
import OrientServer
import Synchronization

/// The configuration the daemon runs with, and what changes it while it runs: SIGHUP rereads the file and
/// applies every setting a running daemon can take (the publisher's, the connection policy's and the sensor
/// pipeline's), naming in one log line each changed setting that waits for the next start
/// (``DaemonSetting/reload``); and with `natural-orientation = auto`, a panel that appears or changes renames
/// the poses at once.
final class RunningConfiguration: Sendable {
    private struct Current {
        var configuration: DaemonConfiguration
        /// The panel as last detected (what `auto` uses when no trace names one).
        var detected: PanelDetection
        var panel: PanelDetection
    }

    private let started: DaemonConfiguration
    /// A replayed trace's own natural orientation, which `auto` prefers to the panel.
    private let traceNatural: NaturalOrientation?
    private let current: Mutex<Current>
    private let read: @Sendable () throws -> DaemonConfiguration
    private let apply: @Sendable (_ next: DaemonConfiguration, _ previous: DaemonConfiguration, PanelDetection) async throws -> String?
    private let logger: Logger

    /// - Parameters:
    ///   - detected: the panel found at start.
    ///   - read: rereads the file and the command line, as at start.
    ///   - apply: hands a configuration (and the one it replaces) and the panel to the running services; returns a
    ///     problem to log, if any.
    init(
        started: DaemonConfiguration, detected: PanelDetection, traceNatural: NaturalOrientation?, logger: Logger,
        read: @escaping @Sendable () throws -> DaemonConfiguration,
        apply: @escaping @Sendable (DaemonConfiguration, DaemonConfiguration, PanelDetection) async throws -> String?
    ) {
        self.started = started
        self.traceNatural = traceNatural
        let panel = Self.panel(for: started, detected: detected, traceNatural: traceNatural)
        self.current = Mutex(Current(configuration: started, detected: detected, panel: panel))
        self.read = read
        self.apply = apply
        self.logger = logger
    }

    /// The natural orientation in use, and where it came from.
    var panel: PanelDetection { current.withLock { $0.panel } }

    /// Whether a panel that comes or goes may matter (under `auto`, now or after a reload): not when a replayed
    /// trace names its own.
    var followsPanel: Bool { traceNatural == nil }

    /// SIGHUP.
    func reload() async {
        do {
            let next = try read()
            // The settings read at start keep their started values, so the whole must still hold together.
            let effective = ReloadPlan.effective(started: started, next: next)
            try effective.validate()
            let (running, detected) = current.withLock { ($0.configuration, $0.detected) }
            let plan = ReloadPlan(started: started, running: running, next: next)
            let panel = Self.panel(for: effective, detected: detected, traceNatural: traceNatural)
            if let problem = try await apply(effective, running, panel) { logger.warning("\(problem)") }
            current.withLock {
                $0.configuration = effective
                $0.panel = panel
            }
            logger.info("\(plan.summary)")
        } catch {
            logger.error("configuration not reloaded, keeping the running one: \(error)")
        }
    }

    /// The panel as detected now (a connector appeared, went or changed).
    func panelDetected(_ detection: PanelDetection) async {
        let (configuration, before, panel) = current.withLock {
            $0.detected = detection
            return ($0.configuration, $0.panel, Self.panel(for: $0.configuration, detected: detection, traceNatural: traceNatural))
        }
        guard panel != before else { return }
        do {
            if let problem = try await apply(configuration, configuration, panel) { logger.warning("\(problem)") }
            current.withLock { $0.panel = panel }
            logger.notice("natural orientation: \(panel.description)")
        } catch {
            logger.error("natural orientation not changed to \(panel.description): \(error)")
        }
    }

    /// The setting when it names one, else a replayed trace's line, else the panel as detected.
    static func panel(
        for configuration: DaemonConfiguration, detected: PanelDetection, traceNatural: NaturalOrientation?
    ) -> PanelDetection {
        PanelDetection.choose(configuration.naturalOrientation, trace: traceNatural) { detected }
    }
}
