#if canImport(Glibc)
import Glibc
#endif

/// A failed call into libiio or libudev: which function, the errno, and the device it concerned.
public struct SensorError: Error, Equatable, CustomStringConvertible {
    public let function: String
    public let errno: Int32
    public let device: String?

    public init(_ function: String, errno: Int32, device: String? = nil) {
        self.function = function
        self.errno = errno
        self.device = device
    }

    /// The device went away (unplugged, driver unbound) rather than failing for a moment.
    public var deviceIsGone: Bool { errno == ENODEV || errno == ENOENT || errno == ENXIO }

    public var description: String {
        let subject = device.map { "\($0): " } ?? ""
        return "\(subject)\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
