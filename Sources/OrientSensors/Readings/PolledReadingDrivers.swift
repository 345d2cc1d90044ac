import OrientCore
import OrientSampleSource

/// The drivers of one kind of sensor, in iio-sensor-proxy's order of preference (the IIO light sensor before
/// applesmc's), and the subsystems whose devices they look at. As in iio-sensor-proxy the first device wins: IIO
/// devices are tried before platform ones, and each device against every driver in turn.
struct PolledReadingDrivers: Sendable {
    let drivers: [any PolledReadingDriver.Type]

    /// - Precondition: `drivers` is not empty, and its drivers are all of one kind.
    init(_ drivers: [any PolledReadingDriver.Type]) {
        precondition(!drivers.isEmpty && drivers.allSatisfy { $0.kind == drivers[0].kind }, "one kind of sensor per source")
        self.drivers = drivers
    }

    var kind: SensorKind { drivers[0].kind }

    /// Every subsystem a driver watches, each once, in the drivers' order.
    var subsystems: [String] {
        drivers.flatMap { $0.subsystems }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The drivers that look at `device`'s subsystem.
    func drivers(for device: IIODeviceFacts) -> [any PolledReadingDriver.Type] {
        drivers.filter { $0.subsystems.contains(device.subsystem) }
    }

    /// The first of `devices` a driver offers, with every driver that offers it, in order, and why each took it: the
    /// first that opens reads it (a light sensor tagged for its buffer whose driver made no trigger, as an I2C part
    /// without its interrupt, is read by polling instead).
    func firstOffered(in devices: [IIODeviceFacts]) -> (device: IIODeviceFacts, offers: [(driver: any PolledReadingDriver.Type, foundBy: String)])? {
        for device in devices {
            let offers = drivers(for: device).compactMap { driver in driver.offer(device).map { (driver, $0) } }
            if !offers.isEmpty { return (device, offers) }
        }
        return nil
    }
}
