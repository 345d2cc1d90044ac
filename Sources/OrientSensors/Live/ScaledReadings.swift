import OrientCore
import OrientSampleSource

/// One accelerometer's readings in m/s²: the driver's scale applied and, where that scale is missing or wrong, 1 g
/// learned at rest (``GravityCalibrator``) and every reading corrected by it. The display's sensor and a
/// convertible's base each have one. Pure: time comes with the readings.
struct ScaledReadings {
    /// The driver's scale, per axis; `nil` when it publishes none.
    let scale: Vector3?
    private var calibrator: GravityCalibrator

    /// - Parameter learnedBefore: the correction learned the last time this sensor was open, used from the first
    ///   reading.
    init(scale: Vector3?, learnedBefore: Double?) {
        self.scale = scale
        calibrator = GravityCalibrator(publishedScale: scale, learnedBefore: learnedBefore)
    }

    /// The reading `unscaled` at `time`, scaled and corrected (`nil` while a missing scale is still being learned),
    /// and the correction this reading completed, when it did.
    mutating func take(_ unscaled: Vector3, at time: Double) -> (acceleration: Vector3?, learned: GravityCorrection?) {
        let published = scale.map { Vector3(unscaled.x * $0.x, unscaled.y * $0.y, unscaled.z * $0.z) } ?? unscaled
        let learned = calibrator.learn(magnitude: published.length, at: time)
        guard let factor = calibrator.correction else { return (nil, learned) }
        return (factor == 1 ? published : published * factor, learned)
    }
}
