import OrientCore

/// What `orientd run` tells the live source.
public struct LiveSensorConfiguration: Sendable, Equatable {
    /// A driver name (`accel_3d`), an id (`iio:device0`) or a sysfs path; `nil` chooses the display sensor.
    public var device: String?
    /// Wins over udev's and sysfs's matrices.
    public var mountMatrixOverride: MountMatrix?
    /// Samples per second.
    public var rate: Double

    public init(device: String? = nil, mountMatrixOverride: MountMatrix? = nil, rate: Double = 50) {
        self.device = device
        self.mountMatrixOverride = mountMatrixOverride
        self.rate = rate
    }
}
