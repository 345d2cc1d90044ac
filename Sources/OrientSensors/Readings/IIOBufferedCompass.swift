import Logging
import OrientCore
import OrientSampleSource

/// A HID sensor hub's compass (hid-sensor-magn-3d), read as iio-sensor-proxy 3.x reads its `iio-buffer-compass`:
/// channel `in_rot_from_north_magnetic_tilt_comp` through the buffer, triggered by `magn_3d-dev<N>`; the heading in
/// degrees is (raw + offset) × scale, the scale from the channel's own `_scale` else `in_rot_scale`. Every 0.7 s it
/// reads the last complete scan (the last heading stands between scans). While the buffer says nothing, the raw
/// attribute is read on a widening schedule: it gives the heading when no scan came since opening, and tells a still
/// compass from a stalled buffer, which is then polled (``HIDChannelReader``).
final class IIOBufferedCompass: PolledReadingDriver {
    static let kind = SensorKind.compass
    static let raisesSamplingFrequencyWhenOpened = true
    static let channel = "rot_from_north_magnetic_tilt_comp"
    /// iio-sensor-proxy's interval.
    static let readInterval = 0.7

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains("iio-buffer-compass") { return "IIO_SENSOR_PROXY_TYPE iio-buffer-compass" }
        return hasScanElement(device, channel) ? "scan element in_\(channel)" : nil
    }

    let interval = IIOBufferedCompass.readInterval
    private let buffer: HIDChannelReader

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        // A heading that moved 5° is news; less is a hub's sensitivity and noise.
        buffer = try HIDChannelReader(
            device: device, channel: Self.channel, sharedPrefix: "in_rot", trigger: "magn_3d", tolerance: .degrees(5),
            logger: logger)
    }

    func takeIncidents() -> [String] { buffer.takeIncidents() }

    func read() throws(AttributeFault) -> Reading? {
        try buffer.read().map { .compass(heading: $0) }
    }
}
