import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

/// What a kernel hinge sensor says at one read.
enum HingeReading: Sendable, Equatable {
    /// The hinge's opening in degrees: 0 closed, 180 flat, 360 folded back into a tablet.
    case degrees(Double)
    /// The sensor answered without a usable angle, and why. Never a posture change: the posture holds.
    case unknown(reason: String)
}

/// A kernel sensor of a convertible's hinge angle, read from sysfs. Two drivers make one:
/// - `hid-sensor-custom-intel-hinge`, IIO name `hinge`: channel `angl0` is the hinge (`angl1` and `angl2`, the
///   screen's and the keyboard's angles, are not used), in radians once its raw value plus the offset is multiplied
///   by the scale the three channels share. Each read asks the sensor hub for a report.
/// - `cros-ec-lid-angle`, IIO name `cros-ec-lid-angle`: `in_angl_raw` in degrees, 500 where the EC cannot tell
///   (its two accelerometers cannot while the hinge axis points at the ground).
///
/// Only the angle is read here; ``HingeReading/unknown(reason:)`` stands for every answer that is not one, and an
/// unreadable attribute throws, so that the one who reads it can count failures and give the sensor up.
struct HingeSensor {
    enum Driver: String, Sendable, CaseIterable {
        case intel = "hinge"
        case cros = "cros-ec-lid-angle"
    }

    /// cros-ec-lid-angle's value when the EC cannot tell the angle (LID_ANGLE_UNRELIABLE).
    static let crosUnreliable = 500.0

    let id: String
    let driver: Driver
    /// The attributes the angle is made of, in the order they apply: raw value, offset, scale, label.
    let attributeNames: [String]
    private let rawPath: String
    private let offset: Double
    /// Degrees per raw unit.
    private let degreesPerUnit: Double

    /// The driver of the hinge sensor `device` is, by its IIO name; `nil` for any other device.
    static func driver(of device: IIODeviceFacts) -> Driver? {
        device.subsystem == "iio" ? device.name.flatMap(Driver.init(rawValue:)) : nil
    }

    init(device: IIODeviceFacts) throws(AttributeFault) {
        guard let driver = Self.driver(of: device) else {
            throw AttributeFault(path: device.path, problem: .refused("is not a hinge sensor (its name is \(device.name ?? "none"))"))
        }
        id = device.id
        self.driver = driver
        switch driver {
        case .intel:
            attributeNames = ["in_angl0_raw", "in_angl_offset", "in_angl_scale", "in_angl0_label"].filter {
                $0 == "in_angl0_raw" || device.attributes.contains($0)
            }
            rawPath = device.attributePath("in_angl0_raw")
            if device.attributes.contains("in_angl0_label") {
                let labelPath = device.attributePath("in_angl0_label")
                let label = try Self.text(labelPath)
                guard label == "hinge" else {
                    throw AttributeFault(path: labelPath, problem: .refused("labels channel 0 \"\(label)\", not hinge"))
                }
            }
            let radiansPerUnit = try readNumber(device.attributePath("in_angl_scale"))
            degreesPerUnit = radiansPerUnit * 180 / Double.pi
            offset = device.attributes.contains("in_angl_offset") ? try readNumber(device.attributePath("in_angl_offset")) : 0
        case .cros:
            attributeNames = ["in_angl_raw"]
            rawPath = device.attributePath("in_angl_raw")
            degreesPerUnit = 1
            offset = 0
        }
    }

    /// The angle now. Throws when the attribute cannot be read (``AttributeFault/deviceIsGone`` when the sensor went).
    func read() throws(AttributeFault) -> HingeReading {
        let text = try Self.text(rawPath)
        guard let raw = RawAttributeFile.value(parsing: text) else {
            return .unknown(reason: "\(rawPath) reads \"\(text)\", not a number")
        }
        if driver == .cros, raw == Self.crosUnreliable { return .unknown(reason: "the EC cannot tell the angle (500)") }
        let degrees = (raw + offset) * degreesPerUnit
        guard (0...360).contains(degrees) else { return .unknown(reason: "\(rawPath) gives \(degrees)°, outside 0 to 360") }
        return .degrees(degrees)
    }

    static func text(_ path: String) throws(AttributeFault) -> String {
        switch readTextFile(path) {
        case .success(let text): text.trimmingSpaces
        case .failure(let error): throw AttributeFault(path: path, problem: .unreadable(errno: error.rawValue))
        }
    }
}
