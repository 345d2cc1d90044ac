import Logging
import OrientCore
import OrientPosix
import OrientSampleSource

#if canImport(Glibc)
import Glibc
#endif

/// Apple's ambient light sensor on Intel Macs, read as iio-sensor-proxy 3.0 reads its `hwmon-als`: the attribute
/// `light` of applesmc's platform device (`/sys/devices/platform/applesmc.768/light`) reads `(left,right)`, and the
/// level is the brighter of the two as a percentage of 255, in the unit `vendor`, read every 8 s and at once when
/// opened. Under umockdev (`UMOCKDEV_DIR` set) it is read every 0.5 s, as iio-sensor-proxy 3.9 reads it there, so
/// that its test suite and orientd's see a change without waiting 8 s.
///
/// Its levels go out as read, past the light filter, as iio-sensor-proxy sends them: read once in 8 s, it cannot
/// make brightness hunt faster than that, and the filter's confirmation would hold a real change back.
///
/// The device is the platform one, not the hwmon device below it: applesmc puts `light` there. iio-sensor-proxy's
/// udev rule tags hwmon devices that have `light` (there are none), and iio-sensor-proxy itself looks at platform
/// devices, so it finds the sensor only when something tags the platform device; orientd also takes an untagged
/// one by its attribute, but only applesmc's, since another platform driver's `light` may mean something else.
struct HwmonLight: PolledReadingDriver {
    static let kind = SensorKind.light
    static let subsystems = ["platform"]
    /// iio-sensor-proxy's interval, and its interval under umockdev.
    static let pollInterval = 8.0
    static let emulatedPollInterval = 0.5
    /// The largest value applesmc reads for either side.
    static let fullScale: Float = 255

    static func match(_ device: IIODeviceFacts) -> String? {
        if device.sensorProxyTypes.contains("hwmon-als") { return "IIO_SENSOR_PROXY_TYPE hwmon-als" }
        return device.attributes.contains("light") && device.name == "applesmc" ? "applesmc's attribute light" : nil
    }

    let interval = getenv("UMOCKDEV_DIR") == nil ? HwmonLight.pollInterval : HwmonLight.emulatedPollInterval
    private let path: String

    init(device: IIODeviceFacts, logger: Logger) throws(AttributeFault) {
        guard device.attributes.contains("light") else {
            throw AttributeFault(path: device.attributePath("light"), problem: .unreadable(errno: ENOENT))
        }
        path = device.attributePath("light")
    }

    func describe(_ description: inout ReadingSensorDescription) {
        description.publishedAsRead = true
    }

    func read() throws(AttributeFault) -> Reading? {
        let text: String
        switch readTextFile(path) {
        case .success(let read): text = read
        case .failure(let error): throw AttributeFault(path: path, problem: .unreadable(errno: error.rawValue))
        }
        guard let sides = Self.sides(parsing: text) else {
            throw AttributeFault(path: path, problem: .notOfTheForm(text: text.trimmingSpaces, form: "(l,r)"))
        }
        return .light(level: Self.level(left: sides.left, right: sides.right), unit: .vendor)
    }

    /// The two readings in `(l,r)` (spaces allowed around each number, as iio-sensor-proxy's `sscanf` allows), or
    /// nil when the text is not of that form (the closing parenthesis included, which `sscanf` would not check).
    static func sides(parsing text: String) -> (left: Int, right: Int)? {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasPrefix("("), trimmed.hasSuffix(")") else { return nil }
        let parts = trimmed.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let left = Int(String(parts[0]).trimmingSpaces), let right = Int(String(parts[1]).trimmingSpaces)
        else { return nil }
        return (left, right)
    }

    /// The brighter side as a percentage of full scale, computed in single precision as iio-sensor-proxy computes it,
    /// so that clients see the same number: (128,128) is 50.196083, where double precision gives 50.196078.
    static func level(left: Int, right: Int) -> Double {
        Double(Float(max(left, right)) / fullScale * 100)
    }
}
