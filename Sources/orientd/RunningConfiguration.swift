import Logging
import OrientConfiguration
import OrientCore
import ServiceLifecycle
import Synchronization

/// Hands the configuration to the running parts, the one way settings reach them: once at start, then at every
/// SIGHUP (the file and the command line read again) and whenever the panel changes under
/// `natural-orientation = auto`. The reload's log line is built from the parts' answers (``ReloadReport``).
///
/// After start, changes are queued and applied one at a time by ``run()``, in the order they came: configuring the
/// parts suspends, and a panel change handled while a reload waits on a part could otherwise leave the parts
/// configured with different panels.
final class RunningConfiguration: Service, Sendable {
    /// What asks for the parts to be configured again.
    private enum Change: Sendable {
        case reload
        case panel(PanelDetection)
    }

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
    private let parts: [any ConfiguredPart]
    private let read: @Sendable () throws -> DaemonConfiguration
    private let logger: Logger
    private let changes: AsyncStream<Change>
    private let queue: AsyncStream<Change>.Continuation

    /// - Parameters:
    ///   - detected: the panel found at start.
    ///   - read: rereads the file and the command line, as at start.
    init(
        started: DaemonConfiguration, detected: PanelDetection, traceNatural: NaturalOrientation?,
        parts: [any ConfiguredPart], logger: Logger, read: @escaping @Sendable () throws -> DaemonConfiguration
    ) {
        self.started = started
        self.traceNatural = traceNatural
        let settings = RunSettings(started, detected: detected, traceNatural: traceNatural)
        self.current = Mutex(Current(configuration: started, detected: detected, panel: settings.panel))
        self.parts = parts
        self.read = read
        self.logger = logger
        (changes, queue) = AsyncStream.makeStream(of: Change.self)
    }

    /// Whether a panel that comes or goes may matter (under `auto`, now or after a reload): not when a replayed
    /// trace names its own.
    var followsPanel: Bool { traceNatural == nil }

    /// Configures every part with the configuration the daemon starts with.
    func start() async {
        let (configuration, panel) = current.withLock { ($0.configuration, $0.panel) }
        logger.info("natural orientation: \(panel.description)")
        logRefusals(await configureParts(RunSettings(configuration, panel: panel)))
    }

    /// SIGHUP: the file and the command line are read again once the changes queued before it are applied.
    func requestReload() { queue.yield(.reload) }

    /// The panel as detected now (a connector appeared, went or changed), applied after the changes queued before it.
    func panelDetected(_ detection: PanelDetection) { queue.yield(.panel(detection)) }

    /// Applies the queued changes in order, each to the end before the next, until graceful shutdown.
    func run() async {
        let changes = self.changes
        await cancelWhenGracefulShutdown {
            for await change in changes {
                switch change {
                case .reload: await self.reload()
                case .panel(let detection): await self.apply(detection)
                }
            }
        }
    }

    private func reload() async {
        let next: DaemonConfiguration
        do {
            next = try read()
            try next.validate()
        } catch {
            logger.error("configuration not reloaded, keeping the running one: \(error)")
            return
        }
        let (running, detected) = current.withLock { ($0.configuration, $0.detected) }
        let settings = RunSettings(next, detected: detected, traceNatural: traceNatural)
        let answers = await configureParts(settings)
        current.withLock {
            $0.configuration = next
            $0.panel = settings.panel
        }
        logRefusals(answers)
        logger.info("\(ReloadReport(started: started, running: running, next: next, answers: answers).summary)")
    }

    private func apply(_ detection: PanelDetection) async {
        let (configuration, before) = current.withLock {
            $0.detected = detection
            return ($0.configuration, $0.panel)
        }
        let settings = RunSettings(configuration, detected: detection, traceNatural: traceNatural)
        guard settings.panel != before else { return }
        logRefusals(await configureParts(settings))
        current.withLock { $0.panel = settings.panel }
        logger.notice("natural orientation: \(settings.panel.description)")
    }

    private func configureParts(_ settings: RunSettings) async -> [PartAnswer] {
        var answers: [PartAnswer] = []
        for part in parts { answers.append(await part.configure(settings)) }
        return answers
    }

    private func logRefusals(_ answers: [PartAnswer]) {
        for refusal in answers.compactMap(\.refusal) { logger.warning("\(refusal.reason)") }
    }
}
