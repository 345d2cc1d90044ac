import OrientCore

/// What `orientd run` tells the live source.
public struct LiveSensorConfiguration: Sendable, Equatable {
    /// A driver name (`accel_3d`), an id (`iio:device0`) or a sysfs path; `nil` chooses the display sensor.
    public var device: String?
    /// Wins over udev's and sysfs's matrices.
    public var mountMatrixOverride: MountMatrix?
    /// Samples per second.
    public var rate: Double
    /// Polled samples per second once the device has been still for a second (`SamplingPace`); nil: always `rate`.
    public var stillRate: Double?
    /// Whether a convertible's base sensor is read with the display's; `orientd record --display-only` turns it off.
    public var readsBase: Bool

    public init(
        device: String? = nil, mountMatrixOverride: MountMatrix? = nil, rate: Double = 50, stillRate: Double? = nil,
        readsBase: Bool = true
    ) {
        self.device = device
        self.mountMatrixOverride = mountMatrixOverride
        self.rate = rate
        self.stillRate = stillRate
        self.readsBase = readsBase
    }
}
