import Logging
import NIOCore
import OrientCore
import OrientSampleSource

/// What happens to each sensor event, run on the capture's own thread: the engine classifies there (and, with a
/// base sensor or a hinge sensor, reads the hinge), and only a committed change hops to the event loop. So a still device costs one
/// wakeup per sample (the capture's), and the event loop wakes only when something is published.
///
/// Confined to the capture thread that feeds it; the daemon makes one per capture.
final class SensorPipeline: @unchecked Sendable {
    /// The engine each opened sensor gets; its mount matrix, when set, wins over the sensor's own.
    private let engineConfiguration: EngineConfiguration
    private let eventLoop: EventLoop
    private let publisher: NIOLoopBound<Publisher>
    private let sourceEnded: @Sendable () -> Void
    private let logger: Logger
    private var engine: ConvertibleEngine?
    /// The lid switch's last state, kept for the engine of the next sensor opened; nil without a switch.
    private var lidClosed: Bool?
    /// The last sample's time, for what an event without one changes (a base sensor lost).
    private var lastTime: Double?
    /// The first refused sample of a capture is a warning (a driver or clock fault); the rest would flood the log.
    private var refusalReported = false

    init(
        engine: EngineConfiguration, eventLoop: EventLoop, publisher: NIOLoopBound<Publisher>, logger: Logger,
        sourceEnded: @escaping @Sendable () -> Void
    ) {
        self.engineConfiguration = engine
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.logger = logger
        self.sourceEnded = sourceEnded
    }

    func handle(_ event: SensorEvent) {
        let publisher = self.publisher
        switch event {
        case .opened(let description):
            engine = makeEngine(for: description)
            engine?.setLidClosed(lidClosed)
            // Published as in use: `status` shows the configuration's matrix when it names one.
            let inUse = description.overridingMountMatrix(engineConfiguration.mountMatrix)
            logOpened(inUse)
            eventLoop.execute { publisher.value.take(.accelerometerOpened(inUse), of: .accelerometer) }
        case .sample(let sample):
            do {
                guard let before = engine?.orientation.device, let update = try engine?.feed(sample) else { return }
                lastTime = sample.time
                // Without a tracker the engine holds no interface upright (rotate-in): the publisher holds its views
                // itself, from tablet mode.
                let change = AccelerometerUpdate(
                    device: update.orientation.map(\.device).flatMap { $0 != before ? $0 : nil },
                    posture: update.posture, tilt: update.tilt, first: update.firstReading, time: sample.time)
                guard !change.isEmpty else { return }
                eventLoop.execute { publisher.value.take(.accelerometerRead(change), of: .accelerometer) }
            } catch where !refusalReported {
                refusalReported = true
                logger.warning("sample refused: \(error) (further refusals are logged at debug level)")
            } catch {
                logger.debug("sample refused: \(error)")
            }
        case .gravityLearned, .baseGravityLearned:
            break  // the live source has logged it, and the samples that follow are corrected
        case .lid(let closed):
            lidClosed = closed
            engine?.setLidClosed(closed)
        case .baseLost(let reason):
            postureSensorLost("base sensor", reason: reason, news: .baseLost)
        case .hingeLost(let reason):
            postureSensorLost("hinge sensor", reason: reason, news: .hingeLost)
        case .lost(let reason):
            logger.warning("sensor unavailable: \(reason)")
            engine = nil
            eventLoop.execute { publisher.value.take(.lost(reason: reason), of: .accelerometer) }
        case .incident(let what):
            eventLoop.execute { publisher.value.take(.incident(what), of: .accelerometer) }
        case .noSensor(let reason):
            logger.notice("no sensor: \(reason)")
            engine = nil
            eventLoop.execute { publisher.value.take(.noSensor(reason: reason), of: .accelerometer) }
        case .sourceEnded:
            sourceEnded()
        }
    }

    /// The base or hinge sensor (`which`) went away while the display's goes on: the engine and the publisher forget
    /// the posture.
    private func postureSensorLost(_ which: String, reason: String, news: SensorNews) {
        logger.warning("\(which) unavailable: \(reason); posture unknown, the display alone turns the screen")
        _ = engine?.postureSensorLost(time: lastTime ?? 0)
        let publisher = self.publisher
        eventLoop.execute { publisher.value.take(news, of: .accelerometer) }
    }

    private func makeEngine(for description: SensorDescription) -> ConvertibleEngine? {
        do {
            // No tracker: the publisher resolves the interface of each view from the device orientation, once each.
            return try engineConfiguration.makeEngine(
                displayMatrix: description.mountMatrix, baseMatrix: description.baseMountMatrix,
                hasHinge: description.hinge != nil, tracker: nil)
        } catch {
            logger.error("cannot start the classifier: \(error)")
            return nil
        }
    }

    private func logOpened(_ description: SensorDescription) {
        let matrix = description.mountMatrix
        logger.info(
            "sensor \(description.id) (\(description.name)), \(description.mode.rawValue), location \(description.location.rawValue)")
        let fixed = matrix.repairingHandedness()
        if engineConfiguration.mountRepair, fixed.isApplied {
            logger.notice(
                "mount matrix \(matrix) (from \(description.mountMatrixSource)) is mirrored; using \(fixed.repaired) (z = x × y)")
        } else {
            logger.info("mount matrix \(matrix) (from \(description.mountMatrixSource))")
        }
        if let hinge = description.hinge {
            logger.info("hinge sensor \(hinge.displayName): its angle is the hinge's; posture and tablet mode read")
        }
        guard let base = description.baseMountMatrix else { return }
        let fixedBase = base.repairingHandedness()
        let repaired = engineConfiguration.mountRepair && fixedBase.isApplied
        let used = repaired ? " (mirrored; using \(fixedBase.repaired))" : ""
        let rotateIn = engine?.rotateIn.rawValue ?? "-"
        logger.info("base sensor: mount matrix \(base)\(used); posture and tablet mode read, rotate-in \(rotateIn)")
    }
}
