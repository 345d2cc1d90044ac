import CLinuxInput

#if canImport(Glibc)
import Glibc
#endif

/// The X, Y and Z absolute axes of an evdev input device read once (EVIOCGABS), for an accelerometer that is an
/// input device (older laptops' and tablets' `ID_INPUT_ACCELEROMETER` devices), as iio-sensor-proxy's
/// `input-accel` reads it: the node opened for each reading, the axes asked in the order X, Y, Z.
public enum AbsoluteAxes {
    /// The values of ABS_X, ABS_Y and ABS_Z of the device at `node` (an /dev/input/event* node) now.
    public static func read(node: String) throws(InputDeviceError) -> (x: Int32, y: Int32, z: Int32) {
        let descriptor = open(node, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDeviceError("open \(node)", errno: errno) }
        defer { close(descriptor) }
        var values: [Int32] = []
        for (axis, name) in [(ABS_X, "ABS_X"), (ABS_Y, "ABS_Y"), (ABS_Z, "ABS_Z")] {
            var value: Int32 = 0
            guard orientd_evdev_absolute_value(descriptor, UInt32(axis), &value) >= 0 else {
                throw InputDeviceError("EVIOCGABS(\(name)) \(node)", errno: errno)
            }
            values.append(value)
        }
        return (values[0], values[1], values[2])
    }
}
