import Logging
import OrientCore
import OrientPosix
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// A polled IIO proximity sensor, read as iio-sensor-proxy 3.9 reads its `iio-poll-proximity`: `in_proximity_raw`
/// (or `in_proximity0_raw`) every 0.7 s, near as iio-sensor-proxy decides it (``isNear(raw:level:previous:)``). The
/// near level is the udev property `PROXIMITY_NEAR_LEVEL` (set by a hwdb entry for the machine), else the driver's
/// `in_proximity_nearlevel`; a sensor with neither is not offered, as in iio-sensor-proxy, since a raw reading means
/// nothing without it.
///
/// A class: it remembers the previous raw reading, which moves the threshold.
final class IIOPolledProximity: PolledReadingDriver {
    static let kind = SensorKind.proximity
    /// The channels read, the first a device has.
    static let channels = ["in_proximity_raw", "in_proximity0_raw"]
    /// iio-sensor-proxy's interval.
    static let pollInterval = 0.7

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains("iio-poll-proximity") { return "IIO_SENSOR_PROXY_TYPE iio-poll-proximity" }
        return channel(of: device).map { "channel \($0)" }
    }

    static func channel(of device: IIODeviceFacts) -> String? { channels.first(where: device.attributes.contains) }

    static func unusable(_ device: IIODeviceFacts) -> String? {
        switch readNearLevel(of: device) {
        case .success: nil
        case .failure(let missing): missing.description
        }
    }

    /// Whether a reading of `raw` is near, as iio-sensor-proxy 3.9 decides it: above 110 % of the near level after a
    /// reading at or below the level, above 90 % after one above it. So a steady reading is near exactly when it is
    /// above the level, from its second read on, and a single reading across the level (a hand passing) does not
    /// flip it. The threshold follows the previous reading, not the previous decision: a state-based band would
    /// never turn near for a steady reading between 100 % and 110 % of the level.
    static func isNear(raw: Double, level: Double, previous: Double) -> Bool {
        raw > level * (previous > level ? 0.9 : 1.1)
    }

    let interval = IIOPolledProximity.pollInterval
    let nearLevel: Double
    private let rawPath: String
    /// The previous raw reading; 0 before the first, as in iio-sensor-proxy.
    private var previous = 0.0

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        guard let channel = Self.channel(of: device) else {
            throw AttributeFault(path: device.attributePath(Self.channels[0]), problem: .unreadable(errno: ENOENT))
        }
        rawPath = device.attributePath(channel)
        switch Self.readNearLevel(of: device) {
        case .success(let level): nearLevel = level
        // Only a device that `unusable` passed is opened; this covers its near level vanishing in between.
        case .failure(let missing): throw AttributeFault(path: missing.attributePath, problem: .unreadable(errno: ENOENT))
        }
    }

    func read() throws(AttributeFault) -> Reading? {
        let raw = try readNumber(rawPath)
        defer { previous = raw }
        return .proximity(near: Self.isNear(raw: raw, level: nearLevel, previous: previous))
    }

    func describe(_ description: inout ReadingSensorDescription) {
        description.details[.nearLevel] = nearLevel
    }

    /// Why a proximity sensor has no near level: what was looked at, and what was found there.
    struct NoNearLevel: Error, CustomStringConvertible {
        var property: String?
        var attributePath: String
        var attribute: String?

        var description: String {
            let property = self.property.map { "PROXIMITY_NEAR_LEVEL is \"\($0)\", not a number above 0" }
                ?? "no udev property PROXIMITY_NEAR_LEVEL"
            let attribute = self.attribute.map { "\(attributePath) reads \"\($0)\", not a number above 0" }
                ?? "no \(attributePath)"
            return "no near level (\(property); \(attribute))"
        }
    }

    /// The udev property when it holds a number above 0, else the sysfs attribute when it does (0 counts as
    /// missing, as in iio-sensor-proxy).
    static func readNearLevel(of device: IIODeviceFacts) -> Result<Double, NoNearLevel> {
        if let text = device.proximityNearLevel, let level = RawAttributeFile.value(parsing: text), level > 0 {
            return .success(level)
        }
        let path = device.attributePath("in_proximity_nearlevel")
        var attribute: String?
        if device.attributes.contains("in_proximity_nearlevel"), case .success(let text) = readTextFile(path) {
            if let level = RawAttributeFile.value(parsing: text), level > 0 { return .success(level) }
            attribute = text.trimmingSpaces
        }
        return .failure(NoNearLevel(property: device.proximityNearLevel?.trimmingSpaces, attributePath: path, attribute: attribute))
    }
}
