import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's signals: SIGHUP reloads the configuration (a bad file is reported and the running one kept);
/// SIGTERM or SIGINT makes this service return, which shuts the whole group down gracefully.
public struct SignalService: Service {
    private let signals: AsyncStream<Int32>
    private let reload: @Sendable () async -> Void
    private let logger: Logger

    public init(signals: AsyncStream<Int32>, logger: Logger, reload: @escaping @Sendable () async -> Void) {
        self.signals = signals
        self.logger = logger
        self.reload = reload
    }

    public func run() async {
        // Cancelled at graceful shutdown (a task group), not through the sequence's cancelOnGracefulShutdown(),
        // whose merge can deadlock against the task's cancellation (see PanelWatch).
        let (signals, reload, logger) = (self.signals, self.reload, self.logger)
        await cancelWhenGracefulShutdown {
            for await signal in signals {
                if signal == SIGHUP {
                    await reload()
                } else {
                    logger.info("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
                    return
                }
            }
        }
    }
}
