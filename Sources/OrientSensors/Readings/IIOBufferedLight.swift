import Logging
import OrientCore
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// A HID sensor hub's ambient light sensor (hid-sensor-als), read as iio-sensor-proxy 3.x reads its
/// `iio-buffer-als`: channel `in_intensity_both` through the buffer, triggered by `als-dev<N>`; the level is
/// (raw + offset) × scale, the scale from `in_intensity_both_scale` else `in_intensity_scale`, in lux (HID
/// sensors report lux, whatever IIO calls the channel). Every 0.7 s it reads the last complete scan; a hub reports
/// on change, so between scans the last one's level stands (and is read again: the light filter needs a second
/// reading to confirm a change). While the buffer says nothing, the raw attribute is read on a widening schedule: it
/// gives the level when no scan came since opening, and tells a steady room from a stalled buffer, which is then
/// polled (``HIDChannelReader``).
final class IIOBufferedLight: PolledReadingDriver {
    static let kind = SensorKind.light
    static let raisesSamplingFrequencyWhenOpened = true
    static let channel = "intensity_both"
    /// iio-sensor-proxy's interval.
    static let readInterval = 0.7

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains("iio-buffer-als") { return "IIO_SENSOR_PROXY_TYPE iio-buffer-als" }
        return hasScanElement(device, channel) ? "scan element in_\(channel)" : nil
    }

    let interval = IIOBufferedLight.readInterval
    private let buffer: HIDChannelReader

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        // A tenth of the level, or a lux, is news; less is a hub's sensitivity and noise.
        buffer = try HIDChannelReader(
            device: device, channel: Self.channel, sharedPrefix: "in_intensity", trigger: "als",
            tolerance: .relative(0.1, floor: 1), logger: logger)
    }

    func takeIncidents() -> [String] { buffer.takeIncidents() }

    func read() throws(AttributeFault) -> Reading? {
        try buffer.read().map { .light(level: $0, unit: .lux) }
    }

    func readFresh() throws(AttributeFault) -> Reading? {
        try buffer.readFresh().map { .light(level: $0, unit: .lux) }
    }
}

/// Whether `device` has `channel` as a scan element (`scan_elements/in_<channel>_en`), as iio-sensor-proxy's udev
/// rule tests it: udev lists only a device's top-level attributes.
func hasScanElement(_ device: IIODeviceFacts, _ channel: String) -> Bool {
    access(device.attributePath("scan_elements/in_\(channel)_en"), F_OK) == 0
}
