/// Keeps the extremes of a few series in time bins (one per lane: x, y, z and magnitude for the readings, the hinge
/// angle for a convertible), so that a trace of any length is drawn from a bounded number of points without losing
/// a peak.
///
/// The trace's length is not known until its end (it may come from standard input), so the bins start narrow
/// and double in width, merging in pairs, whenever a sample falls beyond the last one. At most `capacity` bins
/// are ever held. This is for drawing only: the classifier sees every sample.
struct MinMaxDecimator<Values: SIMD> where Values.Scalar == Double {
    /// The samples of one bin: when they start and end, and each series' extremes and when they occurred.
    struct Bin: Equatable {
        var first: Double
        var last: Double
        var count: Int
        var minimum: Values
        var maximum: Values
        var minimumAt: Values
        var maximumAt: Values

        init(time: Double, values: Values) {
            first = time
            last = time
            count = 1
            minimum = values
            maximum = values
            minimumAt = Values(repeating: time)
            maximumAt = Values(repeating: time)
        }

        /// Adds a later stretch of samples.
        mutating func absorb(_ later: Bin) {
            last = later.last
            count += later.count
            // Ties keep the earlier extreme, as the samples themselves would.
            let lower = later.minimum .< minimum
            minimum.replace(with: later.minimum, where: lower)
            minimumAt.replace(with: later.minimumAt, where: lower)
            let higher = later.maximum .> maximum
            maximum.replace(with: later.maximum, where: higher)
            maximumAt.replace(with: later.maximumAt, where: higher)
        }
    }

    let capacity: Int
    /// The time of the first sample; bins are counted from it.
    private(set) var origin: Double?
    private(set) var binWidth: Double
    /// The bins that hold samples, in time order, with their index counted from `origin`.
    private(set) var bins: [(index: Int, bin: Bin)] = []

    /// - Parameters:
    ///   - capacity: the most bins held at once; at least 2.
    ///   - initialWidth: the width of a bin in seconds until the trace outgrows `capacity` of them.
    init(capacity: Int, initialWidth: Double = 0.001) {
        precondition(capacity >= 2 && initialWidth > 0)
        self.capacity = capacity
        self.binWidth = initialWidth
        bins.reserveCapacity(capacity)
    }

    /// Adds a sample; times must not decrease (the trace reader guarantees that they increase).
    mutating func add(time: Double, values: Values) {
        let origin = self.origin ?? time
        self.origin = origin
        let offset = time - origin
        // Only a trace spanning more than Double's range gets here; it cannot be drawn to scale anyway.
        guard offset.isFinite else { return }
        while offset / binWidth >= Double(capacity) { mergePairs() }
        let index = Int((offset / binWidth).rounded(.down))
        let sample = Bin(time: time, values: values)
        if let last = bins.indices.last, bins[last].index == index {
            bins[last].bin.absorb(sample)
        } else {
            bins.append((index, sample))
        }
    }

    /// Doubles the bin width, merging each pair of bins into one.
    private mutating func mergePairs() {
        binWidth *= 2
        var merged: [(index: Int, bin: Bin)] = []
        merged.reserveCapacity(capacity)
        for (index, bin) in bins {
            if let last = merged.indices.last, merged[last].index == index / 2 {
                merged[last].bin.absorb(bin)
            } else {
                merged.append((index / 2, bin))
            }
        }
        bins = merged
    }
}
