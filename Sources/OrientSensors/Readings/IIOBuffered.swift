import Logging
import OrientCore
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// A HID sensor hub's one-value sensor, read as iio-sensor-proxy 3.x reads its `iio-buffer-*` sensors: one channel
/// through the buffer, triggered by `<trigger>-dev<N>`; the value is (raw + offset) × scale, the scale from the
/// channel's own `_scale` else the shared one. Every 0.7 s it reads the last complete scan; a hub reports on change,
/// so between scans the last one's value stands (and is read again: the light filter needs a second reading to
/// confirm a change). While the buffer says nothing, the raw attribute is read on a widening schedule: it gives the
/// value when no scan came since opening, and tells a steady sensor from a stalled buffer, which is then polled
/// (``HIDChannelReader``). What sets each kind apart is its ``HIDChannel``; `Buffers` opens the buffer (libiio's,
/// ``LibIIOBuffers``, or a test's).
final class IIOBuffered<Channel: HIDChannel, Buffers: ChannelBufferOpening>: PolledReadingDriver {
    static var kind: SensorKind { Channel.kind }
    static var raisesSamplingFrequencyWhenOpened: Bool { true }
    /// iio-sensor-proxy's interval.
    static var readInterval: Double { 0.7 }

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains(Channel.proxyType) { return "IIO_SENSOR_PROXY_TYPE \(Channel.proxyType)" }
        return hasScanElement(device, Channel.channel) ? "scan element in_\(Channel.channel)" : nil
    }

    let interval = IIOBuffered.readInterval
    private let buffer: HIDChannelReader

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        let attributes = try BufferedChannelAttributes(
            device: device, channel: Channel.channel, sharedPrefix: Channel.sharedPrefix, logger: logger)
        let opened = try Buffers.open(
            device, channel: Channel.channel, attributes: attributes, trigger: Channel.trigger, logger: logger)
        buffer = HIDChannelReader(
            buffer: opened, id: device.id, rawPath: device.attributePath("in_\(Channel.channel)_raw"),
            tolerance: Channel.tolerance, now: Buffers.clock(for: device), logger: logger)
    }

    func takeIncidents() -> [String] { buffer.takeIncidents() }

    func read() throws(AttributeFault) -> Reading? {
        try buffer.read().map(Channel.reading)
    }

    func readFresh() throws(AttributeFault) -> Reading? {
        try buffer.readFresh().map(Channel.reading)
    }
}

/// One kind of HID hub sensor read through its buffer: iio-sensor-proxy's type for it, the channel, the prefix its
/// shared scale and offset have, its trigger's name, what change is news, and how a value becomes a reading.
protocol HIDChannel: SendableMetatype {
    static var kind: SensorKind { get }
    /// `iio-buffer-als`.
    static var proxyType: String { get }
    /// The channel without `in_`: `intensity_both`.
    static var channel: String { get }
    /// The prefix of its shared `_scale` and `_offset`: `in_intensity`.
    static var sharedPrefix: String { get }
    /// The trigger's name without `-dev<N>`: `als`.
    static var trigger: String { get }
    /// When two of its values are the same reading, for the check of a silent buffer.
    static var tolerance: HIDChannelReader.Tolerance { get }
    static func reading(_ value: Double) -> Reading
}

/// hid-sensor-als: the level in lux (HID sensors report lux, whatever IIO calls the channel).
enum HIDLight: HIDChannel {
    static let kind = SensorKind.light
    static let proxyType = "iio-buffer-als"
    static let channel = "intensity_both"
    static let sharedPrefix = "in_intensity"
    static let trigger = "als"
    /// A tenth of the level, or a lux, is news; less is a hub's sensitivity and noise.
    static let tolerance = HIDChannelReader.Tolerance.relative(0.1, floor: 1)
    static func reading(_ value: Double) -> Reading { .light(level: value, unit: .lux) }
}

/// hid-sensor-magn-3d: the tilt-compensated heading from magnetic north, in degrees.
enum HIDCompass: HIDChannel {
    static let kind = SensorKind.compass
    static let proxyType = "iio-buffer-compass"
    static let channel = "rot_from_north_magnetic_tilt_comp"
    static let sharedPrefix = "in_rot"
    static let trigger = "magn_3d"
    /// A heading that moved 5° is news; less is a hub's sensitivity and noise.
    static let tolerance = HIDChannelReader.Tolerance.degrees(5)
    static func reading(_ value: Double) -> Reading { .compass(heading: value) }
}

typealias IIOBufferedLight = IIOBuffered<HIDLight, LibIIOBuffers>
typealias IIOBufferedCompass = IIOBuffered<HIDCompass, LibIIOBuffers>

/// Whether `device` has `channel` as a scan element (`scan_elements/in_<channel>_en`), as iio-sensor-proxy's udev
/// rule tests it: udev lists only a device's top-level attributes.
func hasScanElement(_ device: IIODeviceFacts, _ channel: String) -> Bool {
    access(device.attributePath("scan_elements/in_\(channel)_en"), F_OK) == 0
}
