import CIIO
import OrientCore

/// Polled capture: the raw attributes read on demand, value = (raw + offset) × scale.
final class IIOPolledAccelerometer {
    let device: IIODevice
    /// The raw attributes kept open; nil when they cannot be, and libiio reads them instead.
    private let files: (x: RawAttributeFile, y: RawAttributeFile, z: RawAttributeFile)?

    init(_ device: IIODevice) {
        self.device = device
        let channels = device.channels
        if let x = RawAttributeFile(channel: channels.x, deviceID: device.id),
            let y = RawAttributeFile(channel: channels.y, deviceID: device.id),
            let z = RawAttributeFile(channel: channels.z, deviceID: device.id)
        {
            files = (x, y, z)
        } else {
            files = nil
        }
    }

    /// The current reading with the offset applied.
    func read() throws(SensorError) -> UnscaledReading {
        if let files {
            let value = Vector3(try files.x.read(), try files.y.read(), try files.z.read()) + device.offset
            return UnscaledReading(value: value, timestamp: nil)
        }
        func raw(_ channel: OpaquePointer) throws(SensorError) -> Double {
            var value: Int64 = 0
            let result = iio_channel_attr_read_longlong(channel, "raw", &value)
            guard result == 0 else { throw SensorError("iio_channel_attr_read_longlong", errno: -result, device: device.id) }
            return Double(value)
        }
        let channels = device.channels
        let value = Vector3(try raw(channels.x), try raw(channels.y), try raw(channels.z)) + device.offset
        return UnscaledReading(value: value, timestamp: nil)
    }
}
