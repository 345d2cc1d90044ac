import OrientCore
import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

/// A buffer-only accelerometer (no `in_accel_*_raw`) emulated by umockdev without a device node: its scans are
/// read from the file `$UMOCKDEV_DIR/iio-dev-data.bin`, the convention of iio-sensor-proxy's own test suite, which
/// orientd's passes. The file is opened again at each read (the tests replace it), the last complete scan is the
/// reading, and its timestamps are ignored (the recorded ones go backwards). While the file is missing the last
/// reading stands. The buffer is enabled while this is open, as on a real device.
final class ScanFileAccelerometer: PolledAccelerometer {
    static let fileName = "iio-dev-data.bin"

    let id: String
    /// The driver's `name`, when it has one.
    let name: String?
    /// Per axis, from `in_accel_{x,y,z}_scale` or the shared `in_accel_scale`; nil when the driver gives none.
    let scale: Vector3?
    private let offset: Vector3
    private let file: String
    private let sysfsPath: String
    private let layout: ScanLayout
    private var last: UnscaledReading?

    /// The data file to read for a device whose node `/dev/<id>` does not exist, under umockdev only; nil elsewhere.
    static func emulatedFile(forDevice id: String) -> String? {
        guard let root = getenv("UMOCKDEV_DIR").map({ String(cString: $0) }), access("/dev/\(id)", F_OK) != 0 else {
            return nil
        }
        return "\(root)/\(fileName)"
    }

    /// Reads the device's name, scale, offset and the layout of its scan elements (enabled here), which must include
    /// x, y and z. Through sysfs rather than libiio, which makes no context of such a testbed.
    init(id: String, sysfsPath: String, file: String) throws(SensorError) {
        // Enabled already when the daemon found it with its D-Bus facade on; not when it serves the socket alone.
        _ = ScanElements.enableAll(ofDeviceAt: sysfsPath)
        let layout: ScanLayout
        do {
            layout = try ScanElements.layout(ofDeviceAt: sysfsPath)
            scale = try Self.perAxis("scale", ofDeviceAt: sysfsPath)
            offset = try Self.perAxis("offset", ofDeviceAt: sysfsPath) ?? .zero
        } catch {
            throw SensorError("read \(error)", errno: EINVAL, device: id)
        }
        guard Self.axes.allSatisfy({ layout.element("in_accel_\($0)") != nil }) else {
            throw SensorError("find enabled in_accel_x, _y and _z scan elements", errno: ENOENT, device: id)
        }
        if let scale, !(scale.x > 0 && scale.y > 0 && scale.z > 0) {
            throw SensorError("use a scale of \(scale) (in_accel_scale)", errno: EINVAL, device: id)
        }
        self.layout = layout
        self.id = id
        self.name = (try? readTextFile(sysfsPath + "/name").get())?.trimmingSpaces
        self.file = file
        self.sysfsPath = sysfsPath
        _ = writeSysfsAttribute("1", to: sysfsPath + "/buffer/enable")
    }

    /// `in_accel_<axis>_<what>` for each axis, else the shared `in_accel_<what>`; nil when an axis has neither.
    /// Parsed whatever the locale (`0.000010`, never `0,000010`).
    private static func perAxis(_ what: String, ofDeviceAt path: String) throws(AttributeFault) -> Vector3? {
        var values: [Double] = []
        for axis in axes {
            let own = "\(path)/in_accel_\(axis)_\(what)"
            let shared = "\(path)/in_accel_\(what)"
            if access(own, F_OK) == 0 {
                values.append(try readNumber(own))
            } else if access(shared, F_OK) == 0 {
                values.append(try readNumber(shared))
            } else {
                return nil
            }
        }
        return Vector3(values[0], values[1], values[2])
    }

    deinit {
        _ = writeSysfsAttribute("0", to: sysfsPath + "/buffer/enable")
    }

    private static let axes = ["x", "y", "z"]

    func read() throws(SensorError) -> UnscaledReading {
        if let bytes = try? readSmallFile(file), let raw = layout.lastScan(in: bytes, of: Self.axes.map { "in_accel_\($0)" }) {
            let value = Vector3(Double(raw[0]), Double(raw[1]), Double(raw[2])) + offset
            last = UnscaledReading(value: value, timestamp: nil)
        }
        guard let last else { throw SensorError("read a complete scan from \(file)", errno: ENODATA, device: id) }
        return last
    }
}
