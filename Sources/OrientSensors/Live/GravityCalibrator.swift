/// Learns the size of 1 g for a sensor that reports no scale, from readings at rest.
///
/// Such readings are in unknown units, so neither the classifier's magnitude gate nor its thresholds would
/// mean anything. Once `window` consecutive readings agree within `tolerance` (relative), their median
/// magnitude is taken as 1 g, and every reading is scaled so that it reads 9.80665 m/s².
public struct GravityCalibrator: Sendable {
    public let window: Int
    public let tolerance: Double
    private var recent: [Double] = []
    /// The learned size of 1 g in raw units, once known.
    public private(set) var learned: Double?

    public init(window: Int = 25, tolerance: Double = 0.03) {
        self.window = window
        self.tolerance = tolerance
    }

    /// Feeds a raw reading's magnitude. Returns the scale to m/s² once 1 g is known.
    public mutating func scale(afterReading magnitude: Double) -> Double? {
        if let learned { return 9.80665 / learned }
        guard magnitude.isFinite, magnitude > 0 else {
            recent.removeAll()
            return nil
        }
        recent.append(magnitude)
        if recent.count > window { recent.removeFirst(recent.count - window) }
        guard recent.count == window else { return nil }
        let sorted = recent.sorted()
        let median = sorted[sorted.count / 2]
        guard (sorted.last! - sorted.first!) / median <= tolerance else { return nil }
        learned = median
        return 9.80665 / median
    }
}
