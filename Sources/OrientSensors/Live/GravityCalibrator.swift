import OrientCore
import OrientPosix
import OrientSampleSource

/// Learns the size of 1 g from readings at rest when the driver's scale is missing or wrong, and gives the
/// factor that corrects every reading. Pure: no I/O, time comes with the readings.
///
/// - No scale: readings are in unknown units, so neither the classifier's magnitude gate nor its thresholds
///   would mean anything. Nothing is delivered until 1 g is learned.
/// - A published scale: readings are taken as they are (correction 1) unless they stay steady yet more than
///   ``plausibleFactor`` away from 1 g: a driver whose scale is off by 10 or 1000, or in g instead of m/s², would
///   otherwise hold the classifier's motion gate shut for good. A correct scale is never touched: a reading at
///   rest is within a few percent of 1 g, and a plausible reading costs one comparison.
///
/// Readings are learned from when, for at least ``duration`` seconds and ``minimumReadings`` readings, they are
/// all that far from 1 g and steady: their standard deviation is at most ``steadiness`` of their mean.
/// Shaking is not steady. A free fall reads near 0 (below ``minimumMagnitude``, never learned) and is brief:
/// falling for a second is a 4.9 m drop. The checks go on after learning, so a correction learned from something
/// other than rest is replaced by the next steady rest, and so is a stale one given to ``init`` as learned before.
public struct GravityCalibrator: Sendable {
    /// 1 g, m/s².
    public static let standardGravity = GravityCorrection.standardGravity

    /// Steady readings within this factor of 1 g either way (1.4: 0.71 to 1.4 g) are taken as right; beyond it,
    /// as a wrong scale. A device at rest reads 1 g within a few percent; the classifier's motion gate (1 g ± 4 m/s²
    /// by default, 0.59 to 1.41 g) would hold every commit back for as long as readings above 1.41 g last. The band
    /// is symmetric in ratio so that a correction learned from a steady acceleration rather than rest (×1/1.5
    /// after a second at 1.5 g) makes rest read outside it (0.67 g), and the next rest is learned back.
    public let plausibleFactor: Double
    /// Below this, in g at the published scale (or once corrected), a reading is never learned from: free fall.
    /// A scale 10 times too small reads 0.1 g, which is still learned.
    public let minimumMagnitude: Double
    /// Seconds the readings must stay steady: 1 with a published scale, whose readings flow meanwhile and
    /// which must not be corrected by mistake; 0.5 without one, whose readings wait for it (25 readings at 50 Hz).
    public let duration: Double
    /// Readings needed at the least, whatever the rate.
    public let minimumReadings: Int
    /// The largest standard deviation, relative to the mean, that counts as steady.
    public let steadiness: Double
    /// The driver's scale, per axis (`nil`: none), reported with what is learned.
    public let publishedScale: Vector3?

    /// What every reading (after the published scale, if any) is multiplied by: 1 for a scale that looks right;
    /// `nil` while a sensor without a scale has not been learned yet.
    public private(set) var correction: Double?
    /// The steady readings being considered: time and magnitude before the correction.
    private var run: [(time: Double, magnitude: Double)] = []
    private static let maximumRun = 2000

    /// `learnedBefore`: the correction learned the last time this sensor was open, used from the first reading.
    public init(
        publishedScale: Vector3?, learnedBefore: Double? = nil, plausibleFactor: Double = 1.4,
        minimumMagnitude: Double = 0.05, duration: Double? = nil, minimumReadings: Int = 10, steadiness: Double = 0.02
    ) {
        self.publishedScale = publishedScale
        self.plausibleFactor = plausibleFactor
        self.minimumMagnitude = minimumMagnitude
        self.duration = duration ?? (publishedScale == nil ? 0.5 : 1.0)
        self.minimumReadings = minimumReadings
        self.steadiness = steadiness
        correction = learnedBefore ?? (publishedScale == nil ? nil : 1)
    }

    /// Feeds one reading's magnitude at `time` (seconds): m/s² at the published scale, or raw units when there
    /// is none. Returns what was learned when this reading completes a steady run; ``correction`` is then updated.
    public mutating func learn(magnitude: Double, at time: Double) -> GravityCorrection? {
        guard magnitude.isFinite, magnitude > 0 else {
            run.removeAll()
            return nil
        }
        if let correction {
            let g = magnitude * correction / Self.standardGravity
            if (g >= 1 / plausibleFactor && g <= plausibleFactor) || g < minimumMagnitude {
                run.removeAll()
                return nil
            }
        }
        if let last = run.last, time < last.time { run.removeAll() }
        run.append((time, magnitude))
        // Keep the last `duration` seconds, or the last `minimumReadings` readings when that is longer: drop the
        // oldest while the rest is enough on its own.
        while run.count > minimumReadings, run[1].time <= time - duration { run.removeFirst() }
        if run.count > Self.maximumRun { run.removeFirst(run.count - Self.maximumRun) }
        guard run.count >= minimumReadings, time - run[0].time >= duration else { return nil }
        let mean = run.reduce(0) { $0 + $1.magnitude } / Double(run.count)
        let variance = run.reduce(0) { $0 + ($1.magnitude - mean) * ($1.magnitude - mean) } / Double(run.count)
        guard variance.squareRoot() <= steadiness * mean else { return nil }
        run.removeAll()
        let factor = Self.standardGravity / mean
        correction = factor
        return GravityCorrection(restMagnitude: mean, factor: factor, publishedScale: publishedScale)
    }
}
