import Logging
import OrientCore
import OrientSampleSource

/// A convertible's keyboard-base accelerometer beside the open display sensor: opened when the device has one, read
/// right after each display reading, and given up when it goes away or keeps failing; the display alone then turns
/// the screen, as on a tablet. Confined to the capture's thread.
final class BaseFollower {
    private let readsBase: Bool
    private let opener: any AccelerometerOpener
    private let learned: LearnedGravity
    private let logger: Logger
    private let deliver: @Sendable (SensorEvent) -> Void
    private var sensor: BaseSensor?
    private var failures = 0

    /// - Parameter readsBase: whether the configuration lets a base sensor be read at all.
    init(
        readsBase: Bool, opener: any AccelerometerOpener, learned: LearnedGravity, logger: Logger,
        deliver: @escaping @Sendable (SensorEvent) -> Void
    ) {
        self.readsBase = readsBase
        self.opener = opener
        self.learned = learned
        self.logger = logger
        self.deliver = deliver
    }

    var isOpen: Bool { sensor != nil }
    var id: String? { sensor?.id }
    /// What the display sensor's description says of it; `nil` without one.
    var description: BaseSensorDescription? { sensor?.description }

    /// Opens the base sensor beside the display's, if the device has one; a base that cannot be opened leaves the
    /// display alone at work. Returns whether one is open now.
    @discardableResult
    func open(beside display: AccelerometerCandidate, candidates: [AccelerometerCandidate]) -> Bool {
        sensor = nil
        guard readsBase, let found = SensorSelection.base(from: candidates, display: display) else { return false }
        do {
            let deliver = self.deliver
            let base = try opener.openBase(found)
            let opened = BaseSensor(found, opened: base, learned: learned, logger: logger) { deliver(.baseGravityLearned($0)) }
            failures = 0
            logger.info("base accelerometer \(found.id): mount matrix \(opened.mountMatrix) (from \(opened.matrixSource))")
            sensor = opened
        } catch {
            logger.warning("cannot open the base accelerometer \(found.id): \(error); no posture")
        }
        return sensor != nil
    }

    /// The base reading to pair with a display reading taken at `time`; `nil` without one. A base that is gone, or
    /// that fails `failuresBeforeLost` times in a row, is given up.
    func read(at time: Double, failuresBeforeLost: Int) -> Vector3? {
        guard let sensor else { return nil }
        do {
            let reading = try sensor.read(at: time)
            failures = 0
            return reading
        } catch {
            failures += 1
            if error.deviceIsGone || failures >= failuresBeforeLost {
                lose(reason: "\(error)")
            } else {
                logger.warning("base accelerometer: \(error) (\(failures) in a row)")
            }
            return nil
        }
    }

    /// Gives the base up and tells the consumer.
    func lose(reason: String) {
        logger.warning("base accelerometer lost: \(reason); the display sensor alone turns the screen")
        sensor = nil
        deliver(.baseLost(reason: reason))
    }

    /// Forgets the base with the display sensor it was read beside (said with the display's loss).
    func close() {
        sensor = nil
    }
}
