/// A sample the classifier refused. The classifier's state is unchanged by it.
public enum ClassifierError: Error, Equatable, CustomStringConvertible {
    /// Time must increase from sample to sample.
    case nonIncreasingTime(previous: Double, got: Double)
    /// A time or an acceleration component that is NaN or infinite.
    case nonFinite(AccelSample)

    public var description: String {
        switch self {
        case .nonIncreasingTime(let previous, let got):
            "sample time \(got) does not increase (previous sample at \(previous))"
        case .nonFinite(let sample):
            "sample at time \(sample.time) has a value that is not finite: \(sample.acceleration)"
        }
    }
}
