import Logging
import OrientSampleSource
import ServiceLifecycle

/// Reads one kind of one-value sensor (light, later proximity and compass) while D-Bus clients claim that kind
/// (``SensorDemand``), and hands every event to its sink (the D-Bus facade). Closed while nobody claims it: its
/// source then has no thread at all.
///
/// It returns at graceful shutdown and at cancellation alike, stopping the source first.
public final class ReadingService: Service {
    private let source: any ReadingSource
    private let demand: SensorDemand
    private let sink: @Sendable (ReadingEvent) -> Void
    private let logger: Logger

    public init(source: any ReadingSource, demand: SensorDemand, logger: Logger, sink: @escaping @Sendable (ReadingEvent) -> Void) {
        self.source = source
        self.demand = demand
        self.sink = sink
        self.logger = logger
    }

    public var kind: SensorKind { source.kind }

    public func run() async {
        // The demand stream ends when the task is cancelled, which graceful shutdown does here (no merged
        // sequence: its lock order can deadlock against the task's cancellation).
        await cancelWhenGracefulShutdown {
            await self.serve()
        }
    }

    private func serve() async {
        var capture: CaptureHandle?
        let name = kind.displayName
        for await level in demand.levels() {
            let claims = level.claims(of: kind)
            if claims > 0, capture == nil {
                logger.info("opening the \(name) (\(claims) D-Bus claim(s))")
                capture = source.start(sink)
            } else if claims == 0, let open = capture {
                await open.stop()
                capture = nil
                logger.info("closed the \(name): no D-Bus claims")
            }
        }
        await capture?.stop()
    }
}
