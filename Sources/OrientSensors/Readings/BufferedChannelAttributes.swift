import Logging

/// What a buffered channel's sysfs files say, read before libiio opens anything so that garbage in them is reported
/// with its file: the scan element's type, and the scale and offset, value = (raw + offset) × scale.
struct BufferedChannelAttributes {
    let format: ScanFormat
    let scale: Double
    let offset: Double

    /// - Parameters:
    ///   - channel: the sysfs name without direction and suffix (`intensity_both`, `rot_from_north_magnetic_tilt_comp`).
    ///   - sharedPrefix: the attribute prefix shared by the channel's type, where its scale and offset may be instead
    ///     (`in_intensity`, `in_rot`).
    init(device: IIODeviceFacts, channel: String, sharedPrefix: String, logger: Logger) throws(AttributeFault) {
        format = try ScanElements.format("in_\(channel)", ofDeviceAt: device.path)
        scale = try Self.scale(of: device, channel: channel, sharedPrefix: sharedPrefix, logger: logger)
        offset = try Self.number(of: device, ["in_\(channel)_offset", "\(sharedPrefix)_offset"]) ?? 0
    }

    /// `in_<channel>_scale`, else `<shared>_scale`; 1 when neither is there. A scale of 0 counts as 1, as in
    /// iio-sensor-proxy, and is logged naming the file.
    private static func scale(of device: IIODeviceFacts, channel: String, sharedPrefix: String, logger: Logger) throws(AttributeFault) -> Double {
        let names = ["in_\(channel)_scale", "\(sharedPrefix)_scale"]
        guard let scale = try number(of: device, names) else { return 1 }
        if scale == 0 {
            let name = names.first(where: device.attributes.contains) ?? names[0]
            logger.warning("\(device.id): \(device.attributePath(name)) reads 0; using 1, as iio-sensor-proxy does")
            return 1
        }
        return scale
    }

    /// The first of `names` the device has, as a number; nil when it has none of them.
    private static func number(of device: IIODeviceFacts, _ names: [String]) throws(AttributeFault) -> Double? {
        guard let name = names.first(where: device.attributes.contains) else { return nil }
        return try readNumber(device.attributePath(name))
    }
}
