import CIIO
import OrientCore

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

/// Buffered capture: the kernel fills a buffer of scans (triggered by the device's own trigger when it has
/// one), libiio reads it from the /dev node, and each channel is decoded with its ``ScanFormat``.
final class IIOBufferedAccelerometer {
    let device: IIODevice
    private let formats: (ScanFormat, ScanFormat, ScanFormat)
    private let timestamp: (channel: OpaquePointer, format: ScanFormat)?
    private let buffer: OpaquePointer

    /// How long one refill waits for data at first, before it returns ETIMEDOUT, so that the capture loop keeps
    /// answering udev events and stop requests (``waitLimit`` changes it).
    static let refillTimeoutMilliseconds: UInt32 = 500

    /// How long one refill waits for data, in seconds: the capture sets the period its held reading goes out at
    /// while the device says nothing. At least 10 ms.
    var waitLimit: Double = Double(refillTimeoutMilliseconds) / 1000 {
        didSet { _ = iio_context_set_timeout(device.context, UInt32(max(10, (waitLimit * 1000).rounded()))) }
    }

    /// Fails (so that the caller polls instead) when the channels are not scan elements or no buffer opens.
    init(_ device: IIODevice, scansPerRead: Int = 1) throws(SensorError) {
        let id = device.id
        func format(_ channel: OpaquePointer) throws(SensorError) -> ScanFormat {
            guard iio_channel_is_scan_element(channel), let raw = iio_channel_get_data_format(channel)?.pointee else {
                throw SensorError("iio_channel_is_scan_element", errno: ENOTSUP, device: id)
            }
            let format = ScanFormat(
                bigEndian: raw.is_be, signed: raw.is_signed, bits: Int(raw.bits), storageBits: Int(raw.length),
                shift: Int(raw.shift))
            guard format.isValid else { throw SensorError("iio_channel_get_data_format", errno: EINVAL, device: id) }
            return format
        }
        let channels = device.channels
        formats = (try format(channels.x), try format(channels.y), try format(channels.z))
        if let channel = iio_device_find_channel(device.device, "timestamp", false), iio_channel_is_scan_element(channel) {
            timestamp = (channel, try format(channel))
            iio_channel_enable(channel)
        } else {
            timestamp = nil
        }
        for channel in [channels.x, channels.y, channels.z] { iio_channel_enable(channel) }
        try Self.selectTrigger(device)
        _ = iio_context_set_timeout(device.context, Self.refillTimeoutMilliseconds)
        let created = LibIIOMessages.logging(id, "opening the buffer of") {
            (iio_device_create_buffer(device.device, scansPerRead, false), errno)
        }
        guard let buffer = created.0 else {
            throw SensorError("iio_device_create_buffer", errno: created.1, device: id)
        }
        self.device = device
        self.buffer = buffer
    }

    deinit {
        let buffer = buffer
        LibIIOMessages.logging(device.id, "closing the buffer of") { iio_buffer_destroy(buffer) }
    }

    /// A device that needs a trigger delivers nothing until one is set. When none is set and the context has
    /// the device's own trigger (named `<name>-dev<N>`, as HID sensor hubs and most drivers name it), use it. With
    /// neither (an I2C part wired with no interrupt, such as a KXCJK-1013 on a cheap tablet), the kernel refuses to
    /// enable the buffer (EINVAL), and iio-sensor-proxy polls such a part too: say so now, so that it is polled.
    private static func selectTrigger(_ device: IIODevice) throws(SensorError) {
        // Read here rather than by iio_device_get_trigger: libiio 0.24 leaves its copy of the empty file that a device
        // with no trigger set shows unterminated, and then reads garbage for a name. No file: it takes no trigger.
        guard case .success(let current) = readTextFile("/sys/bus/iio/devices/\(device.id)/trigger/current_trigger"),
            current.trimmingSpaces.isEmpty
        else { return }
        let own = "\(device.name ?? device.id)-dev\(device.id.drop { !$0.isNumber })"
        guard let trigger = iio_context_find_device(device.context, own), iio_device_is_trigger(trigger) else {
            throw SensorError("choosing a trigger (none set, and no \(own))", errno: EINVAL, device: device.id)
        }
        _ = iio_device_set_trigger(device.device, trigger)
    }

    /// Waits for the next scans and decodes them. Throws ETIMEDOUT when none came within the refill timeout.
    func read() throws(SensorError) -> [UnscaledReading] {
        let count = iio_buffer_refill(buffer)
        guard count >= 0 else { throw SensorError("iio_buffer_refill", errno: Int32(-count), device: device.id) }
        let step = iio_buffer_step(buffer)
        guard step > 0, let end = iio_buffer_end(buffer) else { return [] }
        let channels = device.channels
        guard let x = iio_buffer_first(buffer, channels.x), let y = iio_buffer_first(buffer, channels.y),
            let z = iio_buffer_first(buffer, channels.z)
        else { return [] }
        let stamps = timestamp.flatMap { iio_buffer_first(buffer, $0.channel) }
        var readings: [UnscaledReading] = []
        var offset = 0
        while x + offset + formats.0.storageBytes <= end {
            func value(_ base: UnsafeMutableRawPointer, _ format: ScanFormat) -> Double {
                Double(format.decode(UnsafeRawBufferPointer(start: base + offset, count: format.storageBytes)))
            }
            let vector = Vector3(value(x, formats.0), value(y, formats.1), value(z, formats.2)) + device.offset
            var seconds: Double?
            if let stamps, let format = timestamp?.format { seconds = value(stamps, format) * 1e-9 }
            readings.append(UnscaledReading(value: vector, timestamp: seconds))
            offset += step
        }
        return readings
    }
}
