import Logging
import OrientCore
import OrientPosix
import OrientSampleSource
import Synchronization

/// A polled sysfs sensor of one kind, read by one of its drivers (``IIOPolledLight`` or ``HwmonLight``,
/// ``IIOPolledProximity``): found through udev (its ``DeviceDirectory``), read on a thread of its own between `start`
/// and the handle's `stop`, and followed through hot-plug meanwhile. No thread exists while it is closed, and with no
/// sensor present its thread waits on udev without waking.
public struct PolledReadingSource: ReadingSource {
    private let drivers: PolledReadingDrivers
    private let directory: any DeviceDirectory
    private let logger: Logger

    /// - Parameter drivers: the drivers of one kind, in order of preference.
    init(_ drivers: [any PolledReadingDriver.Type], directory: any DeviceDirectory, logger: Logger) {
        self.drivers = PolledReadingDrivers(drivers)
        self.directory = directory
        self.logger = logger
    }

    public var kind: SensorKind { drivers.kind }

    /// The udev subsystems its drivers look in.
    var subsystems: [String] { drivers.subsystems }

    public func start(_ settings: LiveSettings<SourceSettings>, _ deliver: @escaping @Sendable (ReadingEvent) -> NextRead)
        -> CaptureHandle
    {
        let stop: StopFlag
        do {
            stop = try StopFlag()
        } catch {
            let handle = CaptureHandle {}
            _ = deliver(.noSensor(reason: "cannot read the \(kind.displayName): \(error)"))
            handle.markFinished()
            return handle
        }
        let handle = CaptureHandle { stop.set() }
        let (drivers, directory, logger) = (self.drivers, self.directory, self.logger)
        startThread(name: "orientd-\(kind.rawValue)") {
            PolledReadingCapture(
                drivers: drivers, directory: directory, settings: settings, deliver: deliver, stop: stop, logger: logger
            ).run()
            handle.markFinished()
        }
        return handle
    }

    public func presence() -> AsyncStream<Bool> {
        let (drivers, logger) = (self.drivers, self.logger)
        let refused = RefusedDevices()
        let setup = FoundSensorSetup(logger: logger)
        return directory.devicesChanged(in: drivers.subsystems) { error in
            logger.warning("cannot watch for a \(drivers.kind.displayName) coming and going: \(error)")
            return false
        } observe: { devices, events in
            // The session leaves a device announced as removed out of its enumerations until it is added again.
            let removed = Set(events.filter { $0.action == "remove" }.map(\.id))
            refused.forget(removed)
            setup.forget(removed)
            let offered = devices.compactMap { device in
                drivers.drivers(for: device).first { driver in
                    guard driver.match(device) != nil else { return false }
                    guard let reason = driver.unusable(device) else { return true }
                    if refused.isNew(device.id, reason) {
                        logger.warning("\(driver.kind.displayName) \(device.id) is not offered: \(reason)")
                    }
                    return false
                }.map { (device, $0) }
            }
            // As iio-sensor-proxy does when it finds a sensor: at least 10 Hz.
            for (device, driver) in offered where !driver.raisesSamplingFrequencyWhenOpened { setup.fix(device) }
            return !offered.isEmpty
        }
    }
}

/// The devices a driver matched but could not offer, and why: so that the log says it once per device, not at
/// every udev event.
private final class RefusedDevices: Sendable {
    private let reasons = Mutex<[String: String]>([:])

    /// Whether `reason` is new for device `id` (and remembers it).
    func isNew(_ id: String, _ reason: String) -> Bool {
        reasons.withLock { $0.updateValue(reason, forKey: id) != reason }
    }

    /// Devices that went away: if one comes back unusable, that is said again.
    func forget(_ ids: Set<String>) {
        reasons.withLock { reasons in for id in ids { reasons.removeValue(forKey: id) } }
    }
}

/// Every one-value sensor the daemon can serve, one source per kind: the kinds that have drivers.
public enum ReadingSources {
    /// - Parameter udev: the process's one hub, which every source finds its devices through.
    public static func all(udev: UdevHub, logger: Logger) -> [any ReadingSource] {
        all(directory: udev, logger: logger)
    }

    static func all(directory: any DeviceDirectory, logger: Logger) -> [any ReadingSource] {
        SensorKind.allCases.compactMap { kind in
            let drivers = drivers(for: kind)
            return drivers.isEmpty ? nil : PolledReadingSource(drivers, directory: directory, logger: logger)
        }
    }

    /// Each kind's drivers, in iio-sensor-proxy's order of preference: a new kind's drivers go here (the compiler
    /// asks), a new driver of a kind served already joins its list. The accelerometer has a source of its own.
    static func drivers(for kind: SensorKind) -> [any PolledReadingDriver.Type] {
        switch kind {
        case .accelerometer: []
        // A HID light sensor whose driver also gives `in_illuminance_raw` is read through its buffer: reading its
        // attributes powers the hub's sensor up at each read.
        case .light: [IIOBufferedLight.self, IIOPolledLight.self, HwmonLight.self, FakeLight.self]
        case .proximity: [IIOPolledProximity.self, InputProximitySwitch.self]
        case .compass: [IIOBufferedCompass.self, FakeCompass.self]
        }
    }
}
