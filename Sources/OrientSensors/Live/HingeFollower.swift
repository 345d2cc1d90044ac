import Logging
import OrientCore
import OrientSampleSource

/// A kernel hinge sensor beside the open display sensor (``HingeSensor``): opened with it when the machine has one,
/// read at most once a ``period`` and paired with each display reading by time, and given up when it goes away or
/// keeps failing. Confined to the capture's thread.
///
/// Each read of Intel's sensor asks the sensor hub for a report, so a display read at 50 Hz does not read the hinge
/// at 50 Hz: its angle is held for a period. A display reading further than two periods from the angle held (a
/// batch of buffered scans read late) is paired with ``KernelHingeAngle/unknown``, so the posture holds rather than
/// reading an angle the hinge had at another time.
final class HingeFollower {
    /// How often the hinge is read at most, in seconds.
    static let period = 0.1

    private let readsHinge: Bool
    private let logger: Logger
    private let deliver: @Sendable (SensorEvent) -> Void
    /// The monotonic clock, in seconds.
    private let now: () -> Double
    private var sensor: HingeSensor?
    private(set) var description: HingeSensorDescription?
    private var failures = FailuresInARow()
    /// The last angle read and when (the middle of the read); `nil` after a read that failed.
    private var held: (angle: KernelHingeAngle, time: Double)?
    /// Why the sensor last gave no angle, logged once per spell rather than at every read.
    private var unknownReason: String?

    /// - Parameter readsHinge: whether the configuration lets a sensor beside the display's be read at all.
    init(
        readsHinge: Bool, logger: Logger, now: @escaping () -> Double = monotonicSeconds,
        deliver: @escaping @Sendable (SensorEvent) -> Void
    ) {
        self.readsHinge = readsHinge
        self.logger = logger
        self.now = now
        self.deliver = deliver
    }

    var isOpen: Bool { sensor != nil }
    var id: String? { sensor?.id }

    /// Opens the first of `devices` that is a hinge sensor; one that cannot be opened is logged and left. Returns
    /// whether one is open now.
    @discardableResult
    func open(from devices: [IIODeviceFacts]) -> Bool {
        close()
        guard readsHinge, let found = devices.first(where: { HingeSensor.driver(of: $0) != nil }) else { return false }
        do {
            sensor = try HingeSensor(device: found)
            description = HingeSensorDescription(id: found.id, name: found.name ?? found.id, path: found.path)
            failures = FailuresInARow()
            logger.info("hinge sensor \(found.id) (\(found.name ?? "?")): its angle is the hinge's")
        } catch {
            logger.warning("cannot use the hinge sensor \(found.id): \(error)")
        }
        return sensor != nil
    }

    /// The angle to pair with a display reading taken at `time`: `nil` without a sensor, else the angle read within
    /// two periods of it, or ``KernelHingeAngle/unknown``. The hinge is read anew unless the angle held is less than
    /// a period older than `time`, or newer.
    func angle(pairedWith time: Double, failuresBeforeLost: Int) -> KernelHingeAngle? {
        guard sensor != nil else { return nil }
        let window = 2 * Self.period
        // Held less than a period before `time`, or after it (a batch read late): a read now could only be further.
        if let held, time - held.time < Self.period {
            return abs(held.time - time) <= window ? held.angle : .unknown
        }
        let before = now()
        guard let angle = read(failuresBeforeLost: failuresBeforeLost) else { return sensor == nil ? nil : .unknown }
        let readAt = (before + now()) / 2
        held = (angle, readAt)
        return abs(readAt - time) <= window ? angle : .unknown
    }

    /// Reads the sensor once; `nil` when the read failed.
    private func read(failuresBeforeLost: Int) -> KernelHingeAngle? {
        guard let sensor else { return nil }
        do {
            let reading = try sensor.read()
            failures.succeeded()
            switch reading {
            case .degrees(let degrees):
                if unknownReason != nil { logger.info("hinge sensor \(sensor.id) reads the angle again") }
                unknownReason = nil
                return .degrees(degrees)
            case .unknown(let reason):
                if reason != unknownReason { logger.info("hinge sensor \(sensor.id): no angle: \(reason); the posture holds") }
                unknownReason = reason
                return .unknown
            }
        } catch {
            held = nil
            if failures.failed(deviceIsGone: error.deviceIsGone, limit: failuresBeforeLost) {
                lose(reason: "\(error)")
            } else {
                logger.warning("hinge sensor: \(error) (\(failures.count) in a row)")
            }
            return nil
        }
    }

    /// Gives the sensor up and tells the consumer.
    func lose(reason: String) {
        logger.warning("hinge sensor lost: \(reason)")
        close()
        deliver(.hingeLost(reason: reason))
    }

    /// Forgets the sensor (with the display sensor it was read beside, or before opening another).
    func close() {
        sensor = nil
        description = nil
        held = nil
        unknownReason = nil
    }
}
