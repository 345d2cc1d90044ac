/// What a sample source is told each time it starts capturing: how fast to read a live sensor. A replayed trace
/// keeps its own pace.
public struct CaptureSettings: Sendable, Equatable {
    /// Samples per second.
    public var rate: Double
    /// Polled samples per second once the device has been still for a second (`SamplingPace`); nil: always `rate`.
    public var stillRate: Double?
    /// Polled samples per second once the device has been still for 10 s; nil: the still rate.
    public var restRate: Double?

    public init(rate: Double = 50, stillRate: Double? = nil, restRate: Double? = nil) {
        self.rate = rate
        self.stillRate = stillRate
        self.restRate = restRate
    }
}
