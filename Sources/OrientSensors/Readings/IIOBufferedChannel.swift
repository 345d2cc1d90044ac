import CIIO
import Logging

#if canImport(Glibc)
import Glibc
import OrientPosix
#endif

/// One channel of a HID sensor hub's IIO device read through its buffer, as iio-sensor-proxy 3.x opens and reads
/// its `iio-buffer-*` sensors: every scan element enabled, the device's own trigger (`als-dev<N>`) set, a buffer of
/// 128 scans enabled, and any sampling frequency below 10 raised to 10. Reading a HID sensor's `_raw` attribute
/// instead powers the sensor up for each read.
///
/// ``drain()`` takes what the kernel buffered since the last call without waiting, and keeps the value of the last
/// complete scan: value = (raw + offset) × scale. A HID sensor reports on change, so that value stands until the
/// next scan. The buffer is disabled when this is released. Used on one thread.
final class IIOBufferedChannel {
    /// iio-sensor-proxy's buffer length, in scans.
    static let bufferLength = 128
    /// iio-sensor-proxy raises a lower sampling frequency to this (some hubs report nothing at 0).
    static let minimumFrequency = 10.0
    /// Refills in one drain at most, so that a device that never runs dry cannot hold the thread.
    static let maximumRefills = 16

    /// `/dev/iio:device1`: named in read errors.
    let nodePath: String
    let format: ScanFormat
    let offset: Double
    let scale: Double
    /// The last complete scan's value; nil until one arrives.
    private(set) var value: Double?

    private let context: OpaquePointer
    private let channel: OpaquePointer
    private let buffer: OpaquePointer

    /// - Parameters:
    ///   - channel: the sysfs name without direction and suffix (`intensity_both`, `rot_from_north_magnetic_tilt_comp`).
    ///   - attributes: what the channel's files said (``BufferedChannelAttributes``).
    ///   - trigger: the trigger's name without the device number (`als`, `magn_3d`): `als-dev1` for `iio:device1`.
    init(
        device: IIODeviceFacts, channel name: String, attributes: BufferedChannelAttributes, trigger: String,
        logger: Logger
    ) throws(AttributeFault) {
        nodePath = "/dev/\(device.id)"
        format = attributes.format
        scale = attributes.scale
        offset = attributes.offset

        guard let context = iio_create_local_context() else {
            throw AttributeFault(path: "/sys/bus/iio/devices", problem: .unreadable(errno: errno))
        }
        do throws(AttributeFault) {
            guard let iioDevice = iio_context_find_device(context, device.id) else {
                throw AttributeFault(path: device.path, problem: .unreadable(errno: ENODEV))
            }
            let channels = (0..<iio_device_get_channels_count(iioDevice)).compactMap { iio_device_get_channel(iioDevice, $0) }
            // libiio splits `rot_from_north_magnetic_tilt_comp` into an id and a name; the two together are sysfs's.
            guard let found = channels.first(where: { Self.sysfsName(of: $0) == name && iio_channel_is_scan_element($0) }) else {
                throw AttributeFault(path: device.attributePath("scan_elements/in_\(name)_en"), problem: .unreadable(errno: ENOENT))
            }
            for channel in channels where iio_channel_is_scan_element(channel) { iio_channel_enable(channel) }
            let triggerName = "\(trigger)-dev\(device.id.drop { !$0.isNumber })"
            guard let triggerDevice = iio_context_find_device(context, triggerName), iio_device_is_trigger(triggerDevice) else {
                throw AttributeFault(
                    path: device.attributePath("trigger/current_trigger"),
                    problem: .refused("cannot be set: no IIO trigger named \(triggerName), which iio-sensor-proxy needs too"))
            }
            let set = iio_device_set_trigger(iioDevice, triggerDevice)
            guard set == 0 else {
                throw AttributeFault(
                    path: device.attributePath("trigger/current_trigger"),
                    problem: .refused("cannot be set to \(triggerName): \(String(cString: strerror(-set)))"))
            }
            Self.raiseSamplingFrequency(iioDevice, channels: channels, logger: logger, id: device.id)
            // libiio asks the kernel for 4 blocks of the buffer's size by default (buffer/length 512); one makes the
            // length iio-sensor-proxy's.
            _ = iio_device_set_kernel_buffers_count(iioDevice, 1)
            let created = LibIIOMessages.logging(device.id, "opening the buffer of") {
                (iio_device_create_buffer(iioDevice, Self.bufferLength, false), errno)
            }
            guard let buffer = created.0 else {
                // Opening the node, or writing buffer/length, the scan elements or buffer/enable, failed.
                throw AttributeFault(path: nodePath, problem: .refused("cannot be opened for capture: \(String(cString: strerror(created.1)))"))
            }
            // Never waits: drain() takes what is there.
            _ = iio_buffer_set_blocking_mode(buffer, false)
            self.context = context
            self.channel = found
            self.buffer = buffer
        } catch {
            iio_context_destroy(context)
            throw error
        }
    }

    deinit {
        // Disables the buffer (libiio writes buffer/enable 0) and closes the node.
        let buffer = buffer
        LibIIOMessages.logging(nodePath, "closing the buffer of") { iio_buffer_destroy(buffer) }
        iio_context_destroy(context)
    }

    /// Reads every scan buffered since the last call without waiting, and keeps the last complete one's value;
    /// returns whether one came. An empty buffer is normal (HID sensors report on change); a failed read throws,
    /// naming the device node.
    @discardableResult
    func drain() throws(AttributeFault) -> Bool {
        var scanned = false
        for _ in 0..<Self.maximumRefills {
            let count = iio_buffer_refill(buffer)
            if count == -Int(EAGAIN) || count == 0 { break }
            guard count > 0 else { throw AttributeFault(path: nodePath, problem: .unreadable(errno: Int32(-count))) }
            if let raw = lastScan() {
                value = Self.value(raw: raw, offset: offset, scale: scale)
                scanned = true
            }
        }
        return scanned
    }

    /// (raw + offset) × scale, as iio-sensor-proxy computes a buffered channel's value.
    static func value(raw: Int64, offset: Double, scale: Double) -> Double { (Double(raw) + offset) * scale }

    /// The channel's raw value in the last complete scan of the buffer's contents.
    private func lastScan() -> Int64? {
        let step = iio_buffer_step(buffer)
        guard step > 0, let first = iio_buffer_first(buffer, channel), let end = iio_buffer_end(buffer),
            let start = iio_buffer_start(buffer)
        else { return nil }
        let scans = (end - start) / step
        guard scans > 0 else { return nil }
        let last = first + (scans - 1) * step
        guard last + format.storageBytes <= end else { return nil }
        return format.decode(UnsafeRawBufferPointer(start: last, count: format.storageBytes))
    }

    /// `rot_from_north_magnetic_tilt_comp` from libiio's id `rot_from_north_magnetic` and name `tilt_comp`.
    private static func sysfsName(of channel: OpaquePointer) -> String? {
        guard let id = optionalString(iio_channel_get_id(channel)) else { return nil }
        return optionalString(iio_channel_get_name(channel)).map { "\(id)_\($0)" } ?? id
    }

    /// Raises the device's and its channels' `sampling_frequency` to 10 where it is below, as iio-sensor-proxy does.
    private static func raiseSamplingFrequency(_ device: OpaquePointer, channels: [OpaquePointer], logger: Logger, id: String) {
        func raise(read: (UnsafeMutablePointer<Double>) -> Int32, write: (Double) -> Int32) {
            var current = 0.0
            guard read(&current) == 0, current < minimumFrequency else { return }
            let result = write(minimumFrequency)
            if result < 0 { logger.warning("\(id): cannot raise sampling_frequency to \(minimumFrequency): \(SensorError("write", errno: -result))") }
        }
        if iio_device_find_attr(device, "sampling_frequency") != nil {
            raise { iio_device_attr_read_double(device, "sampling_frequency", $0) } write: {
                Int32(iio_device_attr_write_double(device, "sampling_frequency", $0))
            }
        }
        for channel in channels where iio_channel_find_attr(channel, "sampling_frequency") != nil {
            raise { iio_channel_attr_read_double(channel, "sampling_frequency", $0) } write: {
                Int32(iio_channel_attr_write_double(channel, "sampling_frequency", $0))
            }
        }
    }
}
