import OrientCore
import Synchronization

/// The corrections ``GravityCalibrator`` learned, per sensor, for as long as the sample source lives.
final class LearnedGravity: Sendable {
    private struct Key: Hashable {
        var id: String
        /// A scale that changed (another range) makes what was learned at the old one wrong.
        var publishedScale: Vector3?
    }

    private let corrections = Mutex<[Key: Double]>([:])

    func correction(id: String, publishedScale: Vector3?) -> Double? {
        corrections.withLock { $0[Key(id: id, publishedScale: publishedScale)] }
    }

    func remember(_ correction: Double, id: String, publishedScale: Vector3?) {
        corrections.withLock { $0[Key(id: id, publishedScale: publishedScale)] = correction }
    }
}
