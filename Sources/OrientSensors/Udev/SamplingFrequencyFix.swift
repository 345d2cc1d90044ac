import Logging
import OrientCore
import OrientPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Leaves each sensor the daemon finds sampling at least 10 Hz, as iio-sensor-proxy 3.9 does when it finds one
/// (``SamplingFrequencyChoice``): every attribute whose name ends in `sampling_frequency`, read and, when slower,
/// written with the choice from its `_available` list. Once per device while it stays plugged in; each device's
/// problems are logged once, naming the file, and nothing else is disturbed.
final class SamplingFrequencyFix: Sendable {
    private let fixed = Mutex<Set<String>>([])
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Fixes `device` unless it was fixed since it last appeared.
    func fix(_ device: IIODeviceFacts) {
        guard device.subsystem == "iio", fixed.withLock({ $0.insert(device.id).inserted }) else { return }
        for name in device.attributes.filter({ $0.hasSuffix("sampling_frequency") }).sorted() {
            fix(attribute: name, of: device)
        }
    }

    /// Devices that went away, by id: one that comes back is fixed again.
    func forget(_ ids: Set<String>) {
        fixed.withLock { $0.subtract(ids) }
    }

    private func fix(attribute name: String, of device: IIODeviceFacts) {
        let path = device.attributePath(name)
        guard case .success(let text) = readTextFile(path) else { return }
        guard let current = Double(text.trimmingSpaces) else {
            logger.warning("\(path) reads \"\(text.trimmingSpaces)\", not a number; its sampling frequency is left alone")
            return
        }
        let available: String? = device.attributes.contains(name + "_available")
            ? (try? readTextFile(device.attributePath(name + "_available")).get()) : nil
        guard let (frequency, unreadable) = SamplingFrequencyChoice.choose(current: current, available: available) else { return }
        if let unreadable {
            logger.warning("\(path)_available: \"\(unreadable)\" is not a number; the frequencies before it are chosen from")
        }
        let written = SamplingFrequencyChoice.text(frequency)
        if let problem = Self.write(written, to: path) {
            logger.warning("\(path): cannot set \(written) Hz: \(problem)")
        } else {
            logger.info("\(device.id): sampling_frequency \(SamplingFrequencyChoice.text(current)) Hz set to \(written) Hz (\(name))")
        }
    }

    /// Writes `text` as the whole file, without a newline (sysfs takes one write); the error, or nil.
    private static func write(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        let result = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        return result < 0 ? String(cString: strerror(errno)) : nil
    }
}
