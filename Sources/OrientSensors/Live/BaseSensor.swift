import Logging
import OrientCore
import OrientPosix
import OrientSampleSource

/// The keyboard-base accelerometer of a convertible, read by polling when a display reading needs its pair
/// (``BaseFollower`` pairs them by time).
///
/// Polling the base at the display's pace keeps the two within a read's time of each other, with no second clock or
/// buffer to align; the base changes only as the hinge or the whole device moves, which the display's rate follows
/// anyway. Its scale is checked and learned as the display's is.
final class BaseSensor {
    let candidate: AccelerometerCandidate
    let mountMatrix: MountMatrix
    let matrixSource: SensorDescription.MatrixSource
    private let reader: any PolledAccelerometer
    private let name: String?
    private let scale: Vector3?
    private let learned: LearnedGravity
    private let logger: Logger
    private var readings: ScaledReadings
    /// Tells the consumer what was learned, as the display's correction is told.
    private let announce: (GravityCorrection) -> Void

    var id: String { candidate.id }

    /// What `status`, `doctor` and `record` say about it.
    var description: BaseSensorDescription {
        BaseSensorDescription(
            id: candidate.id, name: name ?? candidate.name ?? candidate.id, path: candidate.path,
            mountMatrix: mountMatrix, mountMatrixSource: matrixSource, scale: scale)
    }

    init(
        _ candidate: AccelerometerCandidate, opened: OpenedBase, learned: LearnedGravity, logger: Logger,
        announce: @escaping (GravityCorrection) -> Void
    ) {
        self.candidate = candidate
        self.reader = opened.reader
        self.name = opened.name
        self.scale = opened.scale
        self.learned = learned
        self.logger = logger
        self.announce = announce
        let (matrix, source, problems) = candidate.mountMatrix()
        for problem in problems { logger.warning("\(problem)") }
        self.mountMatrix = matrix
        self.matrixSource = source
        let before = learned.correction(id: candidate.id, publishedScale: opened.scale)
        self.readings = ScaledReadings(scale: opened.scale, learnedBefore: before)
    }

    /// The base reading now, scaled and corrected; `nil` while a missing scale is still being learned.
    func read(at time: Double) throws(SensorError) -> Vector3? {
        let (acceleration, correction) = readings.take(try reader.read().value, at: time)
        if let correction {
            let text = correction.explanation(device: "base accelerometer \(candidate.id)")
            if correction.publishedScale == nil { logger.notice("\(text)") } else { logger.warning("\(text)") }
            learned.remember(correction.factor, id: candidate.id, publishedScale: correction.publishedScale)
            announce(correction)
        }
        return acceleration
    }
}
