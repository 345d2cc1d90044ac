import Logging
import OrientSampleSource

/// The drivers of one kind of sensor, in the order they are tried on each device: one source per kind reads
/// whichever of them a device is for, so the facade has one light sensor whatever its driver.
protocol DriverChoice {
    static var kind: SensorKind { get }
    static var drivers: [any PolledReadingDriver.Type] { get }
}

/// The light sensor's drivers. A HID light sensor whose driver also gives `in_illuminance_raw` is read through its
/// buffer: reading its attributes powers the hub's sensor up at each read.
enum LightDrivers: DriverChoice {
    static let kind = SensorKind.light
    static var drivers: [any PolledReadingDriver.Type] { [IIOBufferedLight.self, IIOPolledLight.self] }
}

/// A ``DriverChoice`` as one driver: a device is taken by the first of its drivers that offers it (devices are
/// tried in udev's order, so the first device any of them offers wins, as in iio-sensor-proxy), and read by that one.
final class FirstOfDrivers<Choice: DriverChoice>: PolledReadingDriver {
    static var kind: SensorKind { Choice.kind }

    static func match(_ device: IIODeviceFacts) -> String? { driver(for: device)?.match(device) }

    static func unusable(_ device: IIODeviceFacts) -> String? { driver(for: device)?.unusable(device) }

    /// The first driver that offers `device`; else the first that matches it, so that its reason for refusing is said.
    private static func driver(for device: IIODeviceFacts) -> (any PolledReadingDriver.Type)? {
        Choice.drivers.first { $0.offer(device) != nil } ?? Choice.drivers.first { $0.match(device) != nil }
    }

    private let chosen: any PolledReadingDriver

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        guard let driver = Self.driver(for: device) else {
            throw AttributeFault(path: device.path, problem: .refused("is no \(Choice.kind.displayName)"))
        }
        chosen = try driver.init(device: device, logger: logger)
    }

    var interval: Double { chosen.interval }

    func read() throws(AttributeFault) -> Reading? { try chosen.read() }

    func describe(_ description: inout ReadingSensorDescription) { chosen.describe(&description) }
}
