import Logging
import OrientPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The bound on a stop: once any service has ended (SIGTERM, `--exit-at-end`, a failure at start), the daemon
/// exits within `bound`, whatever the rest do. Should a service not return by then, the log names it and the
/// process exits with ``ExitStatus/stopTimedOut``, so that systemd never has to be the one that ends it.
final class StopDeadline: Sendable {
    private let bound: Duration
    private let logger: Logger
    /// `_exit`, which ends the process without waiting on the threads that did not stop; a test records it instead.
    private let exit: @Sendable (Int32) -> Void
    private let running = Mutex<(names: [String], counting: Bool)>(([], false))

    init(bound: Duration, logger: Logger, exit: @escaping @Sendable (Int32) -> Void = { _exit($0) }) {
        self.bound = bound
        self.logger = logger
        self.exit = exit
    }

    /// `service`, reporting to this deadline when it ends.
    func tracking(_ service: some Service, as name: String) -> any Service {
        running.withLock { $0.names.append(name) }
        return Tracked(service: service, name: name, deadline: self)
    }

    private func ended(_ name: String) {
        let startCountdown = running.withLock { running in
            running.names.removeAll { $0 == name }
            defer { running.counting = true }
            return !running.counting
        }
        guard startCountdown else { return }
        let (bound, logger, exit) = (self.bound, self.logger, self.exit)
        startThread(name: "orientd-deadline") { [self] in
            var wait = timespec(tv_sec: Int(bound.components.seconds), tv_nsec: Int(bound.components.attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
            let stuck = running.withLock { $0.names }
            let what = stuck.isEmpty ? "the threads did not stop" : "still running: " + stuck.joined(separator: ", ")
            logger.critical("did not stop within \(bound) (\(what)); exiting with status \(ExitStatus.stopTimedOut.rawValue)")
            // Which threads are busy, or blocked where, tells a stalled executor from a wakeup that never came.
            logger.critical("threads at the deadline: \(describeThreads().joined(separator: "; "))")
            exit(ExitStatus.stopTimedOut.rawValue)
        }
    }

    private struct Tracked<Wrapped: Service>: Service {
        let service: Wrapped
        let name: String
        let deadline: StopDeadline

        func run() async throws {
            defer { deadline.ended(name) }
            try await service.run()
        }
    }
}
