import Logging
import OrientConfiguration
import OrientCore
import OrientSampleSource
import ServiceLifecycle
import Synchronization

/// Reads one kind of one-value sensor (light, later proximity and compass) while D-Bus clients claim that kind
/// (``SensorDemand``), and hands its events to its sink (the D-Bus facade). Closed while nobody claims it: its
/// source then has no thread at all.
///
/// Light levels pass through a ``LightFilter`` first, so that the sink sees a new level only on a real change;
/// the filter may ask the source to read again sooner, to confirm one. As a configured part it takes the filter's
/// threshold (`light-threshold`), at start and at every reload.
///
/// It returns at graceful shutdown and at cancellation alike, stopping the source first.
public final class ReadingService: Service, ConfiguredPart {
    private let source: any ReadingSource
    private let demand: SensorDemand
    private let sink: @Sendable (ReadingEvent) -> Void
    private let logger: Logger
    private let filter = Mutex(LightFilter(threshold: DaemonConfiguration().lightThreshold))
    private let now: @Sendable () -> Double

    /// - Parameter now: seconds on a monotonic clock, for the light filter (a test gives its own).
    public init(
        source: any ReadingSource, demand: SensorDemand, logger: Logger, now: @escaping @Sendable () -> Double = ReadingService.clockSeconds,
        sink: @escaping @Sendable (ReadingEvent) -> Void
    ) {
        self.source = source
        self.demand = demand
        self.sink = sink
        self.logger = logger
        self.now = now
    }

    public var kind: SensorKind { source.kind }

    /// Seconds on the continuous clock, which never goes back.
    public static func clockSeconds() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private static let origin = ContinuousClock.now

    public static let reads = SettingsRead(whileRunning: ["light-threshold"])

    public static func slice(of settings: RunSettings) -> Double { settings.configuration.lightThreshold }

    public func apply(_ threshold: Double) async -> Refusal? {
        filter.withLock { $0.threshold = threshold }
        return nil
    }

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
                capture = source.start(paced: pass)
            } else if claims == 0, let open = capture {
                await open.stop()
                capture = nil
                logger.info("closed the \(name): no D-Bus claims")
            }
        }
        await capture?.stop()
    }

    /// Hands `event` to the sink, a light level only when the filter publishes it; on the source's thread.
    @Sendable private func pass(_ event: ReadingEvent) -> NextRead {
        switch event {
        case .opened:
            // A sensor opened (again): its first reading is published at once, as iio-sensor-proxy does.
            filter.withLock { $0.reset() }
        case .reading(.light(let level, let unit)):
            let time = now()
            let decision = filter.withLock { $0.take(level, at: time) }
            if let published = decision.publish { sink(.reading(.light(level: published, unit: unit))) }
            return decision.readAgainAt.map { .within(seconds: $0 - time) } ?? .onSchedule
        default:
            break
        }
        sink(event)
        return .onSchedule
    }
}
