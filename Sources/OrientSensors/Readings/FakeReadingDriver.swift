import Logging
import OrientCore
import OrientSampleSource
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// iio-sensor-proxy's fake sensors, for desktop developers without the hardware: with `FAKE_LIGHT_SENSOR` (or
/// `FAKE_COMPASS`) set in the daemon's environment, any input device whose udev property `NAME` is `"Power Button"`
/// (quotes included; every laptop has one) stands in for a light sensor (or compass) that reads a value that moves
/// every second, as iio-sensor-proxy 3.9's fake drivers read it. Without the variable they find nothing.
protocol FakeReadingDriver: PolledReadingDriver {
    /// The environment variable that turns the driver on.
    static var variable: String { get }
}

extension FakeReadingDriver {
    static var subsystems: [String] { ["input"] }

    func describe(_ description: inout ReadingSensorDescription) {
        description.publishedAsRead = true
    }

    static func match(_ device: IIODeviceFacts) -> String? {
        // getenv, not the whole environment as a dictionary: this runs for every input device at every udev event.
        match(device, variableIsSet: getenv(variable) != nil)
    }

    /// ``match(_:)`` with the variable's presence told, not read from the environment: for a test.
    static func match(_ device: IIODeviceFacts, variableIsSet: @autoclosure () -> Bool) -> String? {
        guard variableIsSet(), device.inputName == "\"Power Button\"" else { return nil }
        return "\(variable) and the input device \"Power Button\""
    }
}

/// A light sensor that reads 0 lux at its first read, then one more at every read, once a second; the count goes on
/// across closing and opening, for the life of the daemon.
struct FakeLight: FakeReadingDriver {
    static let kind = SensorKind.light
    static let variable = "FAKE_LIGHT_SENSOR"
    private static let last = Mutex(-1.0)

    let interval = 1.0

    init(device: IIODeviceFacts, logger: Logger) {}

    func read() -> Reading? {
        .light(level: Self.last.withLock { $0 += 1; return $0 }, unit: .lux)
    }
}

/// A compass whose heading is 10° at its first read, then 10° more at every read, once a second, back to 0 at 360;
/// the heading goes on across closing and opening.
struct FakeCompass: FakeReadingDriver {
    static let kind = SensorKind.compass
    static let variable = "FAKE_COMPASS"
    private static let last = Mutex(0.0)

    let interval = 1.0

    init(device: IIODeviceFacts, logger: Logger) {}

    func read() -> Reading? {
        .compass(heading: Self.last.withLock { $0 = $0 + 10 >= 360 ? 0 : $0 + 10; return $0 })
    }
}
