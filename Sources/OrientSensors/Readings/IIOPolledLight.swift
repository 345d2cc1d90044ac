import Logging
import OrientCore
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// A polled IIO ambient light sensor (ACPI ALS `acpi-als`, many I2C parts), read as iio-sensor-proxy 3.0 reads
/// its `iio-poll-als`: `in_illuminance_input` (or `in_illuminance0_input`, else `in_illuminance_raw`) ×
/// `in_illuminance_scale` (missing or 0 counts as 1), in lux, every `in_illuminance_integration_time` seconds,
/// else every 0.8 s. The scale and the interval are read once, when the sensor opens.
///
/// The scale multiplies whichever channel is read, the input channels too: iio-sensor-proxy 3.0 does (measured
/// side by side: input 10 with scale 2 reads 20 lux), and the desktops were tuned against it.
struct IIOPolledLight: PolledReadingDriver {
    static let kind = SensorKind.light
    /// iio-sensor-proxy's interval when the driver gives no integration time.
    static let defaultInterval = 0.8
    /// The channels that give a level; the first present wins.
    static let channels = ["in_illuminance_input", "in_illuminance0_input", "in_illuminance_raw"]

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains("iio-poll-als") { return "IIO_SENSOR_PROXY_TYPE iio-poll-als" }
        return channels.first(where: device.attributes.contains).map { "channel \($0)" }
    }

    let interval: Double
    private let levelPath: String
    private let scale: Double

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        guard let channel = Self.channels.first(where: device.attributes.contains) else {
            throw AttributeFault(path: device.attributePath(Self.channels[0]), problem: .unreadable(errno: ENOENT))
        }
        levelPath = device.attributePath(channel)
        scale = Self.scale(of: device, logger: logger)
        interval = Self.interval(of: device, logger: logger)
    }

    func read() throws(AttributeFault) -> Reading? {
        .light(level: try readNumber(levelPath) * scale, unit: .lux)
    }

    /// `in_illuminance_scale`; 1 when it is missing, 0 or unreadable (the last two logged).
    private static func scale(of device: IIODeviceFacts, logger: Logger) -> Double {
        guard device.attributes.contains("in_illuminance_scale") else { return 1 }
        do {
            let scale = try readNumber(device.attributePath("in_illuminance_scale"))
            if scale == 0 {
                logger.warning("light sensor \(device.id): \(device.attributePath("in_illuminance_scale")) reads 0; using 1, as iio-sensor-proxy does")
                return 1
            }
            return scale
        } catch {
            logger.warning("light sensor \(device.id): \(error); using a scale of 1")
            return 1
        }
    }

    /// `in_illuminance_integration_time` in seconds when it is there and positive, else 0.8 s.
    private static func interval(of device: IIODeviceFacts, logger: Logger) -> Double {
        guard device.attributes.contains("in_illuminance_integration_time") else { return defaultInterval }
        do {
            let seconds = try readNumber(device.attributePath("in_illuminance_integration_time"))
            guard seconds > 0 else { return defaultInterval }
            return seconds
        } catch {
            logger.warning("light sensor \(device.id): \(error); reading every \(defaultInterval) s")
            return defaultInterval
        }
    }
}
