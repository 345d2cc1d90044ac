/// How long to wait before the next polled reading: the full rate while the device moves, a slow rate once it
/// has been still for a second, and a slower rest rate once it has been still for ``restAfter``.
///
/// Two steps, because the two kinds of stillness differ. A device put down or held between turns is often turned
/// again within seconds, and the still rate (5 Hz) catches an instant turn in half the time iio-sensor-proxy's
/// 700 ms poll does. A device still for longer (on a desk, on a stand) is read at the rest rate (2 Hz), where each
/// reading costs about half of one of iio-sensor-proxy's, so that a long rest costs less than it does there.
///
/// It lives beside the classifier, not in it: the classifier sees whatever samples come, with their own times,
/// so replays and the scenario suite are unchanged. Any reading that differs from the still reference by more
/// than `threshold` returns to the full rate at once, so a hand turning the device (a few hundred ms) is
/// sampled at the full rate from its first degrees. On a convertible the base sensor's reading counts too: a
/// keyboard folded back under a display held still is a move, and so is a kernel hinge sensor's angle moving by
/// more than ``hingeThreshold``. Pure and deterministic: time comes from the readings.
public struct SamplingPace: Sendable, Equatable {
    /// Seconds between readings while moving, while still, and at rest.
    public let fullPeriod: Double
    public let stillPeriod: Double
    public let restPeriod: Double
    /// m/s² a reading may differ from the reference and still count as still (about 3° of tilt at 0.5).
    public let threshold: Double
    /// Seconds of steadiness at the full rate before slowing down: long enough for the classifier to settle.
    public let dwell: Double
    /// Seconds of steadiness before the rest rate.
    public let restAfter: Double

    private var reference: Vector3?
    private var baseReference: Vector3?
    private var hingeReference: Double?
    private var steadySince = 0.0
    /// Degrees a kernel hinge sensor's angle may move and still count as still (its readings come in whole degrees).
    public static let hingeThreshold = 3.0

    /// A still or rest rate above the one before it is that one: `restRate` nil rests at the still rate.
    public init(
        fullRate: Double, stillRate: Double, restRate: Double? = nil, threshold: Double = 0.5, dwell: Double = 1.0,
        restAfter: Double = 10.0
    ) {
        self.fullPeriod = 1 / fullRate
        self.stillPeriod = 1 / min(stillRate, fullRate)
        self.restPeriod = max(stillPeriod, restRate.map { 1 / $0 } ?? stillPeriod)
        self.threshold = threshold
        self.dwell = dwell
        self.restAfter = restAfter
    }

    /// Takes a reading (m/s², any fixed frame), the base sensor's and the hinge sensor's angle (degrees) when there
    /// are, at `time` (seconds) and returns the seconds until the next one.
    public mutating func period(after reading: Vector3, base: Vector3? = nil, hinge: Double? = nil, at time: Double) -> Double {
        guard let reference, (reading - reference).length <= threshold, isSteady(base), isSteady(hinge: hinge) else {
            reference = reading
            baseReference = base
            hingeReference = hinge
            steadySince = time
            return fullPeriod
        }
        let steady = time - steadySince
        return steady >= restAfter ? restPeriod : steady >= dwell ? stillPeriod : fullPeriod
    }

    /// Whether the base reading is where it was, within the threshold.
    private func isSteady(_ base: Vector3?) -> Bool {
        Self.isSteady(base, baseReference) { ($0 - $1).length <= threshold }
    }

    /// Whether the hinge angle is where it was, within ``hingeThreshold``.
    private func isSteady(hinge: Double?) -> Bool {
        Self.isSteady(hinge, hingeReference) { abs($0 - $1) <= Self.hingeThreshold }
    }

    /// A reading beside the display's is steady when it is absent (or unknown) now and at the reference, or present
    /// at both and `near` it: one that came or went is a change.
    private static func isSteady<Value>(_ now: Value?, _ reference: Value?, near: (Value, Value) -> Bool) -> Bool {
        switch (now, reference) {
        case (nil, nil): true
        case let (now?, reference?): near(now, reference)
        default: false
        }
    }

    /// Forgets the reference (a new sensor, a gap): the next reading starts at the full rate.
    public mutating func reset() {
        reference = nil
    }
}
