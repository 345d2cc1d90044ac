import Logging
import OrientConfiguration
import OrientCore
import OrientSampleSource
import ServiceLifecycle
import Synchronization

/// Reads one kind of sensor while someone wants it (``SensorDemand``: socket clients, D-Bus claims, a `get`
/// waiting), and gives it its settings: the one loop every kind runs, with what differs between kinds in its
/// ``ServedSensor``.
///
/// The loop wakes on a change of demand, of settings (a reload; the kind says whether that restarts an open
/// capture) and on the end of a replayed source. The settings slice is handed to the source at each start. It
/// returns at graceful shutdown and at cancellation alike, stopping the source first.
public final class SensorService<Served: ServedSensor>: Service, ConfiguredPart {
    /// What wakes the service's loop.
    private enum Wake: Sendable {
        case demand(SensorDemand.Level)
        case reconfigured
        case sourceEnded
    }

    public let served: Served
    private let demand: SensorDemand
    private let logger: Logger
    private let settings = Mutex<Served.Settings?>(nil)
    private let wakes: AsyncStream<Wake>
    private let wake: AsyncStream<Wake>.Continuation

    public init(_ served: Served, demand: SensorDemand, logger: Logger) {
        self.served = served
        self.demand = demand
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Wake.self)
    }

    public var kind: SensorKind { served.kind }

    // MARK: Settings

    public static var reads: SettingsRead { Served.reads }

    public static func slice(of settings: RunSettings) -> Served.Settings { Served.slice(of: settings) }

    /// Put in force by the kind at once where it can; the loop restarts an open capture where the kind needs that.
    public func apply(_ slice: Served.Settings) async -> Refusal? {
        served.apply(slice)
        settings.withLock { $0 = slice }
        wake.yield(.reconfigured)
        return nil
    }

    // MARK: Running

    public func run() async {
        // Ends at graceful shutdown through a task group (not a merged sequence, whose lock order can deadlock
        // against the task's cancellation): the streams end when the task is cancelled.
        let (demand, wake, served) = (self.demand, self.wake, self.served)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                // Child tasks, not Task {}: they inherit the daemon's executor preference. They end with the group.
                group.addTask {
                    for await level in demand.levels() { wake.yield(.demand(level)) }
                }
                group.addTask { await served.followPresence() }
                await self.serve()
                group.cancelAll()
            }
        }
    }

    private func serve() async {
        var level = SensorDemand.Level()
        var running = settings.withLock { $0 } ?? Served.defaultSettings
        var capture: CaptureHandle?
        var ended = false

        func reconcile() async {
            let wanted = served.isWanted(at: level, with: running) && !ended
            if wanted, capture == nil {
                logger.info("opening \(served.logName) (\(served.openingReason(at: level)))")
                let wake = self.wake
                capture = served.start(running) { wake.yield(.sourceEnded) }
            } else if !wanted, let open = capture {
                await release(open)
                capture = nil
                if !ended { logger.info("closed \(served.logName): \(served.closingReason)") }
            }
        }

        await reconcile()
        for await wake in wakes {
            switch wake {
            case .demand(let next):
                // Back from sleep: an open sensor is set up again (buffer, trigger, sampling frequency) and read at
                // once, as its start does; its readings from before the sleep are not current any more.
                if next.resumes != level.resumes, let open = capture {
                    logger.notice("resumed from sleep: opening \(served.logName) again")
                    served.incident("resumed from sleep: opened again")
                    await release(open)
                    capture = nil
                }
                level = next
            case .reconfigured:
                guard let next = settings.withLock({ $0 }), next != running else { continue }
                defer { running = next }
                if Served.restarts(from: running, to: next), let open = capture {
                    await release(open)
                    capture = nil
                }
            case .sourceEnded:
                ended = true
                // A replay that ran out has no capture thread left to stop.
                if served.sourceEnded() { return }
            }
            await reconcile()
        }
        if let open = capture { await release(open) }
    }

    /// Stops a capture and, once its thread has ended, tells the kind.
    private func release(_ capture: CaptureHandle) async {
        await capture.stop()
        await served.stopped()
    }
}
