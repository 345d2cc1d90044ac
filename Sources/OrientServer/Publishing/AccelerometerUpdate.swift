import OrientCore

/// What one accelerometer sample changed, as the publisher takes it: in one call, so that the facade is told once.
public struct AccelerometerUpdate: Sendable, Equatable {
    /// The committed device orientation, when it moved.
    public var device: DeviceOrientation?
    /// A convertible's posture, tablet mode or hinge angle, when one moved.
    public var posture: PostureEngine.Change?
    /// The display's tilt, when it moved (iio-sensor-proxy's property only).
    public var tilt: AccelerometerTilt?
    /// On the first sample since the sensor opened: what it shows alone.
    public var first: DeviceOrientation?
    /// The sample's time, in seconds.
    public var time: Double

    public init(
        device: DeviceOrientation? = nil, posture: PostureEngine.Change? = nil, tilt: AccelerometerTilt? = nil,
        first: DeviceOrientation? = nil, time: Double
    ) {
        self.device = device
        self.posture = posture
        self.tilt = tilt
        self.first = first
        self.time = time
    }

    /// Whether it tells nothing.
    public var isEmpty: Bool { device == nil && posture == nil && tilt == nil && first == nil }
}
