import Logging
import NIOCore
import OrientCore
import OrientSensors

/// What happens to each sensor event, run on the capture's own thread: the engine classifies there, and only a
/// committed change hops to the event loop. So a still device costs one wakeup per sample (the capture's), and
/// the event loop wakes only when something is published.
///
/// Confined to the capture thread that feeds it; the daemon makes one per capture.
final class SensorPipeline: @unchecked Sendable {
    private let settings: PipelineSettings
    private let eventLoop: EventLoop
    private let publisher: NIOLoopBound<Publisher>
    private let sourceEnded: @Sendable () -> Void
    private let logger: Logger
    private var engine: OrientationEngine?
    /// The first refused sample of a capture is a warning (a driver or clock fault); the rest would flood the log.
    private var refusalReported = false

    init(
        settings: PipelineSettings, eventLoop: EventLoop, publisher: NIOLoopBound<Publisher>, logger: Logger,
        sourceEnded: @escaping @Sendable () -> Void
    ) {
        self.settings = settings
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.logger = logger
        self.sourceEnded = sourceEnded
    }

    func handle(_ event: SensorEvent) {
        let publisher = self.publisher
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
            logOpened(description, matrix: matrix)
            eventLoop.execute { publisher.value.sensorOpened(description) }
        case .sample(let sample):
            do {
                if let change = try engine?.feed(sample) {
                    eventLoop.execute { publisher.value.deviceChanged(change.device, time: change.time) }
                }
            } catch where !refusalReported {
                refusalReported = true
                logger.warning("sample refused: \(error) (further refusals are logged at debug level)")
            } catch {
                logger.debug("sample refused: \(error)")
            }
        case .gravityLearned:
            break  // the live source has logged it, and the samples that follow are corrected
        case .closed(let reason):
            logger.warning("sensor unavailable: \(reason)")
            engine = nil
            eventLoop.execute { publisher.value.sensorLost(.unavailable) }
        case .noSensor(let reason):
            logger.notice("no sensor: \(reason)")
            engine = nil
            eventLoop.execute { publisher.value.sensorLost(.none) }
        case .ended:
            sourceEnded()
        }
    }

    private func logOpened(_ description: SensorDescription, matrix: MountMatrix) {
        logger.info(
            "sensor \(description.id) (\(description.name)), \(description.mode.rawValue), location \(description.location.rawValue)")
        let fixed = matrix.repairingHandedness()
        if settings.mountRepair, fixed.changed, !fixed.isSingular {
            logger.notice(
                "mount matrix \(matrix) (from \(description.mountMatrixSource)) is mirrored; using \(fixed.repaired) (z = x × y)")
        } else {
            logger.info("mount matrix \(matrix) (from \(description.mountMatrixSource))")
        }
    }
}
