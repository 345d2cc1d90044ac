import Logging
import OrientCore
import OrientPosix
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// A polled IIO proximity sensor, read as iio-sensor-proxy 3.0 reads its `iio-poll-proximity`: `in_proximity_raw`
/// every 0.7 s, near when it is above the near level, with a 10 % band either side so that a reading hovering at
/// the level does not flip. The near level is the udev property `PROXIMITY_NEAR_LEVEL` (set by a hwdb entry for the
/// machine), else the driver's `in_proximity_nearlevel`; a sensor with neither is not offered, as in
/// iio-sensor-proxy, since a raw reading means nothing without it.
///
/// A class: it remembers whether the last reading was near, which moves the threshold.
final class IIOPolledProximity: PolledReadingDriver {
    static let kind = SensorKind.proximity
    static let channel = "in_proximity_raw"
    /// iio-sensor-proxy's interval.
    static let pollInterval = 0.7

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains("iio-poll-proximity") { return "IIO_SENSOR_PROXY_TYPE iio-poll-proximity" }
        return device.attributes.contains(channel) ? "channel \(channel)" : nil
    }

    static func unusable(_ device: IIODeviceFacts) -> String? {
        switch readNearLevel(of: device) {
        case .success: nil
        case .failure(let missing): missing.description
        }
    }

    /// Whether a reading of `raw` is near, given the near level and whether the previous reading was near: once
    /// near, it stays near down to 90 % of the level; once far, it becomes near only above 110 %.
    static func isNear(raw: Double, level: Double, wasNear: Bool) -> Bool {
        raw > level * (wasNear ? 0.9 : 1.1)
    }

    let interval = IIOPolledProximity.pollInterval
    let nearLevel: Double
    private let rawPath: String
    private var wasNear = false

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        guard device.attributes.contains(Self.channel) else {
            throw AttributeFault(path: device.attributePath(Self.channel), problem: .unreadable(errno: ENOENT))
        }
        rawPath = device.attributePath(Self.channel)
        switch Self.readNearLevel(of: device) {
        case .success(let level): nearLevel = level
        // Only a device that `unusable` passed is opened; this covers its near level vanishing in between.
        case .failure(let missing): throw AttributeFault(path: missing.attributePath, problem: .unreadable(errno: ENOENT))
        }
    }

    func read() throws(AttributeFault) -> Reading? {
        let near = Self.isNear(raw: try readNumber(rawPath), level: nearLevel, wasNear: wasNear)
        wasNear = near
        return .proximity(near: near)
    }

    func describe(_ description: inout ReadingSensorDescription) {
        description.nearLevel = nearLevel
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
