import CIIO
import OrientCore

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

/// An IIO accelerometer opened through libiio, with what both capture modes need: its x, y and z channels,
/// scale and offset. Owns its libiio context (a snapshot of the devices at creation, so one is made per
/// opening). Used on the capture thread only.
final class IIODevice {
    let id: String
    let name: String?
    /// Per axis, from `in_accel_{x,y,z}_scale` or the shared `in_accel_scale`; `nil` when the driver gives none.
    let scale: Vector3?
    let offset: Vector3
    /// What the device reports after asking for the configured rate, when it has the attribute.
    private(set) var rate: Double?
    /// The clock of buffered timestamps, from `current_timestamp_clock`; `nil` when the device does not say.
    let timestampClock: TimestampClock?

    let context: OpaquePointer
    let device: OpaquePointer
    let channels: (x: OpaquePointer, y: OpaquePointer, z: OpaquePointer)

    init(id: String, requestedRate: Double) throws(SensorError) {
        guard let context = iio_create_local_context() else {
            throw SensorError("iio_create_local_context", errno: errno, device: id)
        }
        guard let device = iio_context_find_device(context, id) else {
            iio_context_destroy(context)
            throw SensorError("iio_context_find_device", errno: ENODEV, device: id)
        }
        func channel(_ axis: String) -> OpaquePointer? { iio_device_find_channel(device, "accel_\(axis)", false) }
        guard let x = channel("x"), let y = channel("y"), let z = channel("z") else {
            iio_context_destroy(context)
            throw SensorError("iio_device_find_channel", errno: ENOENT, device: id)
        }
        self.id = id
        self.context = context
        self.device = device
        self.channels = (x, y, z)
        self.name = optionalString(iio_device_get_name(device))
        func double(_ channel: OpaquePointer, _ attribute: String) -> Double? {
            var value = 0.0
            return iio_channel_attr_read_double(channel, attribute, &value) == 0 && value.isFinite ? value : nil
        }
        let scales = [x, y, z].map { double($0, "scale") }
        scale = scales.allSatisfy { $0 != nil && $0! > 0 } ? Vector3(scales[0]!, scales[1]!, scales[2]!) : nil
        offset = Vector3(double(x, "offset") ?? 0, double(y, "offset") ?? 0, double(z, "offset") ?? 0)
        var clockName = [UInt8](repeating: 0, count: 32)
        let length = clockName.withUnsafeMutableBytes { bytes in
            iio_device_attr_read(device, "current_timestamp_clock", bytes.baseAddress, bytes.count)
        }
        timestampClock = length > 0
            ? TimestampClock(attribute: String(decoding: clockName.prefix { $0 != 0 }, as: UTF8.self)) : nil
        requestRate(requestedRate)
    }

    /// Asks the device for `requested` samples a second (the nearest its `sampling_frequency_available` lists at or
    /// above it, as many drivers take only those) and keeps in `rate` what it then reports. The attribute is the
    /// device's own (`sampling_frequency`) on some drivers and the accelerometer channels' (`in_accel_sampling_
    /// frequency`, which libiio gives each channel) on most, HID sensor hubs and kxcjk-1013 among them; its list may
    /// be either's. Does nothing for a device with neither (mxc4005).
    func requestRate(_ requested: Double) {
        let x = channels.x
        let available = text(deviceAttribute: "sampling_frequency_available")
            ?? text(channelAttribute: "sampling_frequency_available", of: x)
        let frequency = SamplingFrequencyChoice.frequency(for: requested, available: available)
        var actual = 0.0
        if iio_device_find_attr(device, "sampling_frequency") != nil {
            _ = iio_device_attr_write_double(device, "sampling_frequency", frequency)
            if iio_device_attr_read_double(device, "sampling_frequency", &actual) == 0, actual > 0 { rate = actual }
        } else if iio_channel_find_attr(x, "sampling_frequency") != nil {
            _ = iio_channel_attr_write_double(x, "sampling_frequency", frequency)
            if iio_channel_attr_read_double(x, "sampling_frequency", &actual) == 0, actual > 0 { rate = actual }
        }
    }

    private func text(deviceAttribute name: String) -> String? {
        guard iio_device_find_attr(device, name) != nil else { return nil }
        return read { iio_device_attr_read(device, name, $0, $1) }
    }

    private func text(channelAttribute name: String, of channel: OpaquePointer) -> String? {
        guard iio_channel_find_attr(channel, name) != nil else { return nil }
        return read { iio_channel_attr_read(channel, name, $0, $1) }
    }

    /// An attribute's text through libiio's `read(buffer, length)`, nil when it fails.
    private func read(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int) -> String? {
        var bytes = [CChar](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes.prefix(count).prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        iio_context_destroy(context)
    }
}

/// One reading before the scale: (raw + offset), with the device's own timestamp when it has one.
struct UnscaledReading {
    var value: Vector3
    /// Seconds, from the buffer's timestamp channel.
    var timestamp: Double?
}
