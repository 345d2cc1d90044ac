import OrientCore
import OrientInput

/// An accelerometer read by asking it, one reading at a time: an IIO device's raw attributes
/// (``IIOPolledAccelerometer``), or an input device's absolute axes (``InputAccelerometer``).
protocol PolledAccelerometer: AnyObject {
    /// What the logs name it by (`iio:device0`, `event4`).
    var id: String { get }
    /// The current reading, in the device's units with its offset applied.
    func read() throws(SensorError) -> UnscaledReading
}

extension IIOPolledAccelerometer: PolledAccelerometer {
    var id: String { device.id }
}

/// An accelerometer that is an evdev input device (`ID_INPUT_ACCELEROMETER`), read as iio-sensor-proxy 3.9 reads its
/// `input-accel`: its node opened for each reading and the axes X, Y, Z asked with EVIOCGABS, 256 units to 1 g.
final class InputAccelerometer: PolledAccelerometer {
    /// iio-sensor-proxy's scale for these devices, on each axis: 9.81 m/s² per 256 units.
    static let scale = Vector3(9.81 / 256, 9.81 / 256, 9.81 / 256)
    let id: String
    private let node: String

    init(id: String, node: String) {
        self.id = id
        self.node = node
    }

    func read() throws(SensorError) -> UnscaledReading {
        do {
            let axes = try AbsoluteAxes.read(node: node)
            return UnscaledReading(value: Vector3(Double(axes.x), Double(axes.y), Double(axes.z)), timestamp: nil)
        } catch {
            throw SensorError(error.operation, errno: error.errno, device: id)
        }
    }
}
