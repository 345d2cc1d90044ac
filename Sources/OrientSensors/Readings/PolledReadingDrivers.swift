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

    /// The first of `devices` a driver offers, that driver, and why it took it.
    func firstOffered(in devices: [IIODeviceFacts]) -> (device: IIODeviceFacts, driver: any PolledReadingDriver.Type, foundBy: String)? {
        for device in devices {
            for driver in drivers(for: device) {
                if let foundBy = driver.offer(device) { return (device, driver, foundBy) }
            }
        }
        return nil
    }
}
