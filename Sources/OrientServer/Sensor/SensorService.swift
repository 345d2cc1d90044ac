import Logging
import NIOCore
import OrientConfiguration
import OrientCore
import OrientSampleSource
import ServiceLifecycle
import Synchronization

/// Runs the sample source through the engine and hands every committed change to the publisher.
///
/// The source is read only while someone wants it (``SensorDemand``: socket subscribers, D-Bus claims, a `get`
/// waiting), and restarted when a reload changes the service's settings. When a replayed trace ends the service
/// either keeps the last state published (the default) or returns, which shuts the daemon down (`--exit-at-end`).
public final class SensorService: Service, ConfiguredPart {
    /// What wakes the service's loop.
    private enum Wake: Sendable {
        case demand(SensorDemand.Level)
        case reconfigured
        case sourceEnded
    }

    private let source: any SampleSource
    private let eventLoop: EventLoop
    private let publisher: NIOLoopBound<Publisher>
    private let demand: SensorDemand
    /// Subscribers that open the sensor on their own (D-Bus claims and a waiting `get` always do): `nil` decides
    /// by `sampling`; a replay that waits for N subscribers before it plays sets N.
    private let subscribersToOpen: Int?
    /// Read the sensor with nobody subscribed, as `sampling = always` does (the tablet-mode switch must follow the
    /// hinge whether or not anyone listens).
    private let keepOpen: Bool
    private let exitAtEnd: Bool
    private let logger: Logger
    private let settings = Mutex<SensorSettings?>(nil)
    private let wakes: AsyncStream<Wake>
    private let wake: AsyncStream<Wake>.Continuation

    public init(
        source: any SampleSource, eventLoop: EventLoop, publisher: NIOLoopBound<Publisher>, demand: SensorDemand,
        subscribersToOpen: Int? = nil, keepOpen: Bool = false, exitAtEnd: Bool = false, logger: Logger
    ) {
        self.source = source
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.demand = demand
        self.subscribersToOpen = subscribersToOpen
        self.keepOpen = keepOpen
        self.exitAtEnd = exitAtEnd
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Wake.self)
    }

    // MARK: Settings

    public static let reads = SettingsRead(whileRunning: [
        "natural-orientation", "mount-matrix", "mount-repair", "rate", "still-rate", "sampling", "rotate-in",
        "tablet-mode-on-angle", "tablet-mode-off-angle",
    ] + DaemonSetting.all.filter { $0.section == DaemonSetting.classifierSection }.map(\.name))

    public static func slice(of settings: RunSettings) -> SensorSettings {
        let c = settings.configuration
        var engine = c.engine
        engine.natural = settings.panel.natural
        return SensorSettings(engine: engine, sampling: c.sampling, capture: CaptureSettings(rate: c.rate, stillRate: c.stillRate))
    }

    /// Taken by the running loop, which restarts an open capture with them.
    public func apply(_ slice: SensorSettings) async -> Refusal? {
        settings.withLock { $0 = slice }
        wake.yield(.reconfigured)
        return nil
    }

    // MARK: Running

    public func run() async {
        // Ends at graceful shutdown through a task group (not a merged sequence, whose lock order can deadlock
        // against the task's cancellation): the loop's stream ends when the task is cancelled.
        let (demand, wake) = (self.demand, self.wake)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await level in demand.levels() { wake.yield(.demand(level)) }
                }
                await self.serve()
                group.cancelAll()
            }
        }
    }

    private func serve() async {
        var level = SensorDemand.Level()
        var running = settings.withLock { $0 } ?? SensorSettings()
        var capture: CaptureHandle?
        var ended = false

        func reconcile() async {
            let threshold = subscribersToOpen ?? (running.sampling == .always || keepOpen ? 0 : 1)
            let claims = level.claims(of: .accelerometer)
            let wanted = (level.subscribers >= threshold || claims > 0 || level.freshStateWanted) && !ended
            if wanted, capture == nil {
                let why = level.freshStateWanted && level.subscribers == 0 && claims == 0
                    ? "for a get" : "\(level.subscribers) subscriber(s), \(claims) D-Bus claim(s)"
                logger.info("opening the sensor (\(why))")
                capture = startCapture(running)
            } else if !wanted, let open = capture {
                await release(open)
                capture = nil
                if !ended { logger.info("closed the sensor: no subscribers, no D-Bus claims, no get waiting") }
            }
        }

        await reconcile()
        for await wake in wakes {
            switch wake {
            case .demand(let next):
                level = next
            case .reconfigured:
                guard let next = settings.withLock({ $0 }), next != running else { continue }
                running = next
                if let open = capture {
                    await release(open)
                    capture = nil
                }
            case .sourceEnded:
                ended = true
                let publisher = self.publisher
                eventLoop.execute { publisher.value.sourceEnded() }
                if exitAtEnd {
                    logger.info("the replay ended: stopping (--exit-at-end)")
                    return
                }
                logger.info("the replay ended: serving the last state until stopped")
            }
            await reconcile()
        }
        await capture?.stop()
    }

    /// Stops a capture; once its thread has ended, the publisher learns that the state is no longer fresh.
    /// Awaited: until the publisher knows, a `get` would still be answered as fresh without opening the sensor,
    /// and "closed the sensor" must not be logged before that is over.
    private func release(_ capture: CaptureHandle) async {
        await capture.stop()
        let publisher = self.publisher
        try? await eventLoop.submit { publisher.value.sensorReleased() }.get()
    }

    private func startCapture(_ settings: SensorSettings) -> CaptureHandle {
        let wake = self.wake
        let pipeline = SensorPipeline(
            engine: settings.engine, eventLoop: eventLoop, publisher: publisher, logger: logger,
            sourceEnded: { wake.yield(.sourceEnded) })
        return source.start(settings.capture) { pipeline.handle($0) }
    }
}
