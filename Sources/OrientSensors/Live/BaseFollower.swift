import Logging
import OrientCore
import OrientSampleSource

/// A convertible's keyboard-base accelerometer beside the open display sensor: opened when the device has one, read
/// with each display reading and paired with it by time, and given up when it goes away or keeps failing; the
/// display alone then turns the screen, as on a tablet. Confined to the capture's thread.
///
/// Pairing by time: a display reading and a base reading more than ``pairingWindow`` apart would give a hinge angle
/// the device never had (a batch of buffered scans read late meets a base read now, after the fold moved on). Such a
/// reading goes without a base, and the posture holds until the next pair.
final class BaseFollower {
    /// How far apart in time a display reading and the base reading paired with it may be.
    static let pairingWindow = 0.05

    private let readsBase: Bool
    private let opener: any AccelerometerOpener
    private let learned: LearnedGravity
    private let logger: Logger
    private let deliver: @Sendable (SensorEvent) -> Void
    /// The monotonic clock, in seconds.
    private let now: () -> Double
    private var sensor: BaseSensor?
    private var failures = FailuresInARow()
    /// The last base reading and when it was read (the middle of the read); `nil` after a read that failed.
    private var held: (reading: Vector3, time: Double)?

    /// - Parameter readsBase: whether the configuration lets a base sensor be read at all.
    init(
        readsBase: Bool, opener: any AccelerometerOpener, learned: LearnedGravity, logger: Logger,
        now: @escaping () -> Double = monotonicSeconds, deliver: @escaping @Sendable (SensorEvent) -> Void
    ) {
        self.readsBase = readsBase
        self.opener = opener
        self.learned = learned
        self.logger = logger
        self.now = now
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
        held = nil
        guard readsBase, let found = SensorSelection.base(from: candidates, display: display) else { return false }
        do {
            let deliver = self.deliver
            let base = try opener.openBase(found)
            let opened = BaseSensor(found, opened: base, learned: learned, logger: logger) { deliver(.baseGravityLearned($0)) }
            failures = FailuresInARow()
            logger.info("base accelerometer \(found.id): mount matrix \(opened.mountMatrix) (from \(opened.matrixSource))")
            sensor = opened
        } catch {
            logger.warning("cannot open the base accelerometer \(found.id): \(error); no posture")
        }
        return sensor != nil
    }

    /// The base reading to pair with a display reading taken at `time`: one read within ``pairingWindow`` of it, or
    /// `nil`. The base is read anew unless the last base reading is as recent as `time` already (a batch of scans
    /// read at once): a read now could only be further from it. A read slower than the window has no time to pair
    /// on. A base that is gone, or that fails `failuresBeforeLost` times in a row, is given up.
    func reading(pairedWith time: Double, failuresBeforeLost: Int) -> Vector3? {
        guard sensor != nil else { return nil }
        if let held, held.time >= time {
            return held.time - time <= Self.pairingWindow ? held.reading : nil
        }
        let before = now()
        let reading = read(at: time, failuresBeforeLost: failuresBeforeLost)
        let after = now()
        guard let reading, after - before <= Self.pairingWindow else {
            logger.debug("base reading not paired: its read took \(Int((after - before) * 1000)) ms")
            return nil
        }
        let readAt = (before + after) / 2
        held = (reading, readAt)
        guard abs(readAt - time) <= Self.pairingWindow else {
            logger.debug("base reading not paired: read \(Int((readAt - time) * 1000)) ms from the display's")
            return nil
        }
        return reading
    }

    /// Reads the base once.
    private func read(at time: Double, failuresBeforeLost: Int) -> Vector3? {
        guard let sensor else { return nil }
        do {
            let reading = try sensor.read(at: time)
            failures.succeeded()
            return reading
        } catch {
            held = nil
            if failures.failed(deviceIsGone: error.deviceIsGone, limit: failuresBeforeLost) {
                lose(reason: "\(error)")
            } else {
                logger.warning("base accelerometer: \(error) (\(failures.count) in a row)")
            }
            return nil
        }
    }

    /// Gives the base up and tells the consumer.
    func lose(reason: String) {
        logger.warning("base accelerometer lost: \(reason); the display sensor alone turns the screen")
        sensor = nil
        held = nil
        deliver(.baseLost(reason: reason))
    }

    /// Forgets the base with the display sensor it was read beside (said with the display's loss).
    func close() {
        sensor = nil
        held = nil
    }
}
