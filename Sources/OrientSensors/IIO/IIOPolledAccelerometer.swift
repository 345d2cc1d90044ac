import CIIO
import OrientCore

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

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
        // Read as text and parsed as the open files are: libiio's read_longlong turns "-25.6" into -25, and reads
        // "010" as octal 8.
        func raw(_ channel: OpaquePointer) throws(SensorError) -> Double {
            var bytes = [CChar](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBufferPointer { iio_channel_attr_read(channel, "raw", $0.baseAddress, $0.count) }
            guard count > 0 else { throw SensorError("iio_channel_attr_read", errno: count == 0 ? EIO : Int32(-count), device: device.id) }
            let text = String(decoding: bytes.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let value = RawAttributeFile.value(parsing: text) else {
                throw SensorError("parse raw \"\(text.filter { $0 != "\0" }.trimmingSpaces)\"", errno: EINVAL, device: device.id)
            }
            return value
        }
        let channels = device.channels
        let value = Vector3(try raw(channels.x), try raw(channels.y), try raw(channels.z)) + device.offset
        return UnscaledReading(value: value, timestamp: nil)
    }
}
