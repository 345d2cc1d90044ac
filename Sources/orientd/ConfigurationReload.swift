import Logging
import NIOCore
import OrientServer
import Synchronization

/// What SIGHUP does: reread the configuration, apply every setting a running daemon can take (the publisher's,
/// the connection policy's and the sensor pipeline's), and name in one log line each changed setting that
/// waits for the next start (``DaemonSetting/reload``).
final class ConfigurationReload: Sendable {
    private let started: DaemonConfiguration
    private let running: Mutex<DaemonConfiguration>
    private let read: @Sendable () throws -> DaemonConfiguration
    private let apply: @Sendable (DaemonConfiguration) async throws -> String?
    private let logger: Logger

    /// - Parameters:
    ///   - read: rereads the file and the command line, as at start.
    ///   - apply: hands the configuration to the running services; returns a problem to log, if any.
    init(
        started: DaemonConfiguration, logger: Logger, read: @escaping @Sendable () throws -> DaemonConfiguration,
        apply: @escaping @Sendable (DaemonConfiguration) async throws -> String?
    ) {
        self.started = started
        self.running = Mutex(started)
        self.read = read
        self.apply = apply
        self.logger = logger
    }

    func reload() async {
        do {
            let next = try read()
            // The settings read at start keep their started values, so the whole must still hold together.
            let effective = ReloadPlan.effective(started: started, next: next)
            try effective.validate()
            let plan = ReloadPlan(started: started, running: running.withLock { $0 }, next: next)
            if let problem = try await apply(effective) { logger.warning("\(problem)") }
            running.withLock { $0 = effective }
            logger.info("\(plan.summary)")
        } catch {
            logger.error("configuration not reloaded, keeping the running one: \(error)")
        }
    }
}
