import CIIO
import OrientCore

/// Polled capture: the raw attributes read on demand, value = (raw + offset) × scale.
final class IIOPolledAccelerometer {
    let device: IIODevice

    init(_ device: IIODevice) {
        self.device = device
    }

    /// The current reading with the offset applied.
    func read() throws(SensorError) -> UnscaledReading {
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
