import Logging
import OrientConfiguration
import OrientCore
import OrientSampleSource
import ServiceLifecycle
import Synchronization

/// Reads one kind of one-value sensor (light, proximity, compass) while D-Bus clients claim that kind or socket
/// clients want it (``SensorDemand``), and hands what it learns to its sink (the daemon passes it on to the D-Bus
/// facade and the publisher): whether a sensor is plugged in, as udev says, always; its events while it reads.
/// Closed while nobody wants it: its source then has no thread at all.
///
/// Light levels pass through a ``LightFilter`` first, so that the sink sees a new level only on a real change;
/// the filter may ask the source to read again sooner, to confirm one. As a configured part it takes the filter's
/// threshold (`light-threshold`), at start and at every reload.
///
/// It returns at graceful shutdown and at cancellation alike, stopping the source first.
public final class ReadingService: Service, ConfiguredPart {
    /// What the service tells its sink, in the order it happens.
    public enum News: Sendable, Equatable {
        /// Whether a sensor of the kind is plugged in, at start and at every change, read or not.
        case present(Bool)
        /// Someone wants the kind: the source is started, and its events follow.
        case started
        case event(ReadingEvent)
        /// Nobody wants it any more: the source is stopped, and no event follows until the next `started`.
        case stopped
    }

    private let source: any ReadingSource
    private let demand: SensorDemand
    private let sink: @Sendable (News) -> Void
    private let logger: Logger
    private let filter = Mutex(LightFilter(threshold: DaemonConfiguration().lightThreshold))
    private let now: @Sendable () -> Double

    /// - Parameter now: seconds on a monotonic clock, for the light filter (a test gives its own).
    public init(
        source: any ReadingSource, demand: SensorDemand, logger: Logger, now: @escaping @Sendable () -> Double = ReadingService.clockSeconds,
        sink: @escaping @Sendable (News) -> Void
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
            await withDiscardingTaskGroup { group in
                // A child task, not Task {}: it inherits the daemon's executor preference. It ends with the group.
                group.addTask {
                    for await present in self.source.presence() { self.sink(.present(present)) }
                }
                await self.serve()
                group.cancelAll()
            }
        }
    }

    private func serve() async {
        var capture: CaptureHandle?
        let name = kind.displayName
        for await level in demand.levels() {
            let (claims, readers) = (level.claims(of: kind), level.readers(of: kind))
            if claims + readers > 0, capture == nil {
                logger.info("opening the \(name) (\(claims) D-Bus claim(s), \(readers) socket client(s))")
                // Said before the source starts, so that its events come after.
                sink(.started)
                capture = source.start(paced: pass)
            } else if claims + readers == 0, let open = capture {
                await open.stop()
                capture = nil
                sink(.stopped)
                logger.info("closed the \(name): no D-Bus claims, no socket clients")
            }
        }
        if let open = capture {
            await open.stop()
            sink(.stopped)
        }
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
            if let published = decision.publish { sink(.event(.reading(.light(level: published, unit: unit)))) }
            return decision.readAgainAt.map { .within(seconds: $0 - time) } ?? .onSchedule
        default:
            break
        }
        sink(.event(event))
        return .onSchedule
    }
}
