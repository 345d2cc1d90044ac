import Logging
import OrientCore
import OrientPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the daemon sets on each sensor it finds, as iio-sensor-proxy 3.9 does when it finds one:
/// - every attribute whose name ends in `sampling_frequency` at least 10 Hz (``SamplingFrequencyChoice``), read
///   and, when slower, written with the choice from its `_available` list;
/// - for an accelerometer read only through its buffer, every scan element enabled (``ScanElements``), the buffer
///   itself left off until the sensor is opened.
///
/// Once per device while it stays plugged in; each device's problems are logged once, naming the file, and nothing
/// else is disturbed.
final class FoundSensorSetup: Sendable {
    private let fixed = Mutex<Set<String>>([])
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Sets `device` up unless it was since it last appeared; `bufferOnly` enables its scan elements too.
    func fix(_ device: IIODeviceFacts, bufferOnly: Bool = false) {
        guard device.subsystem == "iio", fixed.withLock({ $0.insert(device.id).inserted }) else { return }
        for name in device.attributes.filter({ $0.hasSuffix("sampling_frequency") }).sorted() {
            fix(attribute: name, of: device)
        }
        if bufferOnly {
            for problem in ScanElements.enableAll(ofDeviceAt: device.path) { logger.warning("\(problem)") }
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
        if let problem = writeSysfsAttribute(written, to: path) {
            logger.warning("\(path): cannot set \(written) Hz: \(problem)")
        } else {
            logger.info("\(device.id): sampling_frequency \(SamplingFrequencyChoice.text(current)) Hz set to \(written) Hz (\(name))")
        }
    }
}
