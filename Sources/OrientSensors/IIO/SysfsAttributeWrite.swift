#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` as the whole of sysfs attribute `path`, in one write and without a newline or NUL (sysfs takes
/// one write, and iio-sensor-proxy's tests compare the bytes); the error as a sentence, or nil.
func writeSysfsAttribute(_ text: String, to path: String) -> String? {
    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    defer { close(fd) }
    let result = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    return result < 0 ? String(cString: strerror(errno)) : nil
}
