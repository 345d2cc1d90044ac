import CIIO
import OrientTrace

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

/// One channel's `raw` sysfs attribute, kept open and read with pread.
///
/// libiio opens, reads and closes the file on every read: 9 system calls per axis, 27 per polled sample.
/// sysfs produces a fresh value at each read from offset 0, so one pread per axis does the same work.
/// A file that was replaced (an emulator writes a new file; its old inode has no links left) is reopened.
final class RawAttributeFile {
    private let path: String
    private let deviceID: String
    private var descriptor: Int32

    /// Opens `channel`'s raw attribute of `deviceID`; nil when libiio names no file or it cannot be opened.
    init?(channel: OpaquePointer, deviceID: String) {
        guard let name = iio_channel_attr_get_filename(channel, "raw") else { return nil }
        path = "/sys/bus/iio/devices/\(deviceID)/\(String(cString: name))"
        self.deviceID = deviceID
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    func read() throws(SensorError) -> Double {
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_nlink == 0 {
            close(descriptor)
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SensorError("open \(path)", errno: errno, device: deviceID) }
        }
        // On the stack and parsed as bytes: this runs for every polled sample, and a String and an array per
        // axis were a sixth of its CPU.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer throws(SensorError) in
            let count = pread(descriptor, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { throw SensorError("pread \(path)", errno: count == 0 ? EIO : errno, device: deviceID) }
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<count])
            guard let value = Self.value(parsing: bytes) else {
                let text = String(decoding: bytes, as: UTF8.self)
                throw SensorError("parse \(path): \"\(text.trimmingSpaces)\"", errno: EINVAL, device: deviceID)
            }
            return value
        }
    }

    /// A raw attribute's text as a number: an integer (`-919`), or a decimal (`-25.6`), which some drivers and
    /// emulated sensors write. Surrounding white space and NULs are ignored; the decimal separator is always `.`;
    /// a leading zero is not octal. `nil` for anything else, infinities and NaN included.
    static func value(parsing text: String) -> Double? {
        var text = text
        return text.withUTF8 { value(parsing: $0) }
    }

    static func value(parsing bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        func isPadding(_ byte: UInt8) -> Bool {
            byte == 0 || byte == UInt8(ascii: " ") || (UInt8(ascii: "\t")...UInt8(ascii: "\r")).contains(byte)
        }
        var start = 0
        var end = bytes.count
        while start < end, isPadding(bytes[start]) { start += 1 }
        while end > start, isPadding(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        // A sign, a digit or a point first: the standard library's parser, behind the fast path, also takes
        // words such as "nan" and "infinity".
        let first = bytes[start]
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "-")
            || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        else { return nil }
        return DecimalParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
}
