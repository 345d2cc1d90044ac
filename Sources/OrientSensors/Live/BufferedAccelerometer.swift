import OrientCore

/// An accelerometer read through its buffer (``IIOBufferedAccelerometer``), with what the capture asks of it beside
/// its scans: its raw attributes, read when the buffer opens and to check a silence, and the rate the pace wants.
protocol BufferedAccelerometer: AnyObject {
    /// What the logs name it by (`iio:device0`).
    var id: String { get }
    /// Its scale, per axis; nil when it gives none.
    var scale: Vector3? { get }
    /// How long one read waits for scans, in seconds.
    var waitLimit: Double { get set }
    /// The scans since the last read, in the device's units with its offset applied; throws ETIMEDOUT when none came
    /// within ``waitLimit``.
    func read() throws(SensorError) -> [UnscaledReading]
    /// Its raw attributes, read once.
    func readRaw() throws(SensorError) -> UnscaledReading
    /// Asks it for `rate` samples a second.
    func requestRate(_ rate: Double)
}

extension IIOBufferedAccelerometer: BufferedAccelerometer {
    var id: String { device.id }
    var scale: Vector3? { device.scale }

    func readRaw() throws(SensorError) -> UnscaledReading {
        try IIOPolledAccelerometer(device).read()
    }

    func requestRate(_ rate: Double) {
        device.requestRate(rate)
    }
}
