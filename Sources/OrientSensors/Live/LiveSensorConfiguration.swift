/// Which live accelerometer a source reads, decided when it is made. How fast is told at each start
/// (``CaptureSettings``); the mount matrix a configuration overrides is the engine's business, not the source's.
public struct LiveSensorConfiguration: Sendable, Equatable {
    /// A driver name (`accel_3d`), an id (`iio:device0`) or a sysfs path; `nil` chooses the display sensor.
    public var device: String?
    /// Whether a convertible's base sensor is read with the display's; `orientd record --display-only` turns it off.
    public var readsBase: Bool

    public init(device: String? = nil, readsBase: Bool = true) {
        self.device = device
        self.readsBase = readsBase
    }
}
