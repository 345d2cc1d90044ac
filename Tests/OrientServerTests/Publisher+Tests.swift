import OrientCore
import OrientServer

extension Publisher {
    /// A sample that committed `device` and changed nothing else: what most tests need to move the state.
    func deviceChanged(_ device: DeviceOrientation, time: Double) {
        take(.accelerometerRead(AccelerometerUpdate(device: device, time: time)), of: .accelerometer)
    }
}
