import Logging
import NIOCore
import OrientCore
import OrientProtocol
import OrientSensors
import ServiceLifecycle

/// Runs the sample source through the engine and hands every committed change to the publisher.
///
/// The source is consumed only while enough clients are subscribed (on-demand sampling), and restarted when a
/// reload changes the pipeline. When a replayed trace ends the service either keeps the last state published
/// (the default) or returns, which shuts the daemon down (`--exit-at-end`).
public struct SensorService: Service {
    public enum Control: Sendable {
        case subscribers(Int)
        /// Clients of the D-Bus facade that claim the accelerometer.
        case claims(Int)
        case reconfigure(PipelineSettings)
        case sourceEnded
    }

    private let source: any SampleSource
    private let eventLoop: EventLoop
    private let publisher: NIOLoopBound<Publisher>
    private let controls: AsyncStream<Control>
    private let controlInput: AsyncStream<Control>.Continuation
    private let initialSettings: PipelineSettings
    private let exitAtEnd: Bool
    private let logger: Logger

    public init(
        source: any SampleSource, eventLoop: EventLoop, publisher: NIOLoopBound<Publisher>, settings: PipelineSettings,
        exitAtEnd: Bool, logger: Logger
    ) {
        self.source = source
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.initialSettings = settings
        self.exitAtEnd = exitAtEnd
        self.logger = logger
        (controls, controlInput) = AsyncStream.makeStream(of: Control.self)
    }

    /// Tells the service about subscriber counts and reloads. Safe from any thread.
    public func send(_ control: Control) {
        controlInput.yield(control)
    }

    public func run() async {
        var settings = initialSettings
        var subscribers = 0
        var claims = 0
        var capture: Task<Void, Never>?
        var ended = false

        func reconcile() async {
            // A D-Bus claim counts as a subscriber (a replay that waits for N subscribers waits for sockets only).
            let wanted = (subscribers >= settings.subscribersToRun || claims > 0) && !ended
            if wanted, capture == nil {
                logger.info("opening the sensor (\(subscribers) subscriber(s), \(claims) D-Bus claim(s))")
                capture = startCapture(settings)
            } else if !wanted, let running = capture {
                running.cancel()
                await running.value
                capture = nil
                if !ended { logger.info("closed the sensor: no subscribers and no D-Bus claims") }
            }
        }

        await reconcile()
        for await control in controls.cancelOnGracefulShutdown() {
            switch control {
            case .subscribers(let count):
                subscribers = count
            case .claims(let count):
                claims = count
            case .reconfigure(let next):
                guard next != settings else { continue }
                settings = next
                if let running = capture {
                    running.cancel()
                    await running.value
                    capture = nil
                }
            case .sourceEnded:
                ended = true
                if exitAtEnd {
                    logger.info("the replay ended: stopping (--exit-at-end)")
                    return
                }
                logger.info("the replay ended: serving the last state until stopped")
            }
            await reconcile()
        }
        capture?.cancel()
        await capture?.value
    }

    private func startCapture(_ settings: PipelineSettings) -> Task<Void, Never> {
        let source = self.source
        let publisher = self.publisher
        let eventLoop = self.eventLoop
        let logger = self.logger
        let input = self.controlInput
        return Task {
            var engine: OrientationEngine?
            for await event in source.events() {
                if Task.isCancelled { break }
                switch event {
                case .opened(let description):
                    let matrix = settings.mountMatrixOverride ?? description.mountMatrix
                    do {
                        engine = try OrientationEngine(
                            mountMatrix: matrix, repairHandedness: settings.mountRepair, settings: settings.classifier,
                            tracker: InterfaceOrientationTracker())
                    } catch {
                        logger.error("cannot start the classifier: \(error)")
                        engine = nil
                    }
                    Self.logOpened(description, matrix: matrix, repair: settings.mountRepair, logger: logger)
                    eventLoop.execute { publisher.value.sensorOpened(description) }
                case .sample(let sample):
                    guard var current = engine else { continue }
                    do {
                        if let change = try current.feed(sample) {
                            eventLoop.execute { publisher.value.deviceChanged(change.device, time: change.time) }
                        }
                    } catch {
                        logger.debug("sample refused: \(error)")
                    }
                    engine = current
                case .closed(let reason):
                    logger.warning("sensor unavailable: \(reason)")
                    engine = nil
                    eventLoop.execute { publisher.value.sensorLost(.unavailable) }
                case .noSensor(let reason):
                    logger.notice("no sensor: \(reason)")
                    engine = nil
                    eventLoop.execute { publisher.value.sensorLost(.none) }
                case .ended:
                    input.yield(.sourceEnded)
                }
            }
        }
    }

    private static func logOpened(_ description: SensorDescription, matrix: MountMatrix, repair: Bool, logger: Logger) {
        logger.info(
            "sensor \(description.id) (\(description.name)), \(description.mode.rawValue), location \(description.location.rawValue)")
        let fixed = matrix.repairingHandedness()
        if repair, fixed.changed, !fixed.isSingular {
            logger.notice(
                "mount matrix \(matrix) (from \(description.mountMatrixSource)) is mirrored; using \(fixed.repaired) (z = x × y)")
        } else {
            logger.info("mount matrix \(matrix) (from \(description.mountMatrixSource))")
        }
    }
}
