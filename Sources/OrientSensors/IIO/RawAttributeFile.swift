import CIIO

#if canImport(Glibc)
import Glibc
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
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw SensorError("pread \(path)", errno: count == 0 ? EIO : errno, device: deviceID) }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        guard let value = Self.value(parsing: text) else {
            throw SensorError("parse \(path): \"\(text.trimmingSpaces)\"", errno: EINVAL, device: deviceID)
        }
        return value
    }

    /// A raw attribute's text as a number: an integer (`-919`), or a decimal (`-25.6`), which some drivers and
    /// emulated sensors write. Surrounding white space and NULs are ignored; the decimal separator is always `.`;
    /// a leading zero is not octal. `nil` for anything else, infinities and NaN included.
    static func value(parsing text: String) -> Double? {
        let trimmed = String(text.filter { $0 != "\0" }).trimmingSpaces
        guard let first = trimmed.first, first.isASCII, first.isNumber || first == "-" || first == "+" || first == "." else { return nil }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }
}
