/// One accelerometer reading: seconds on a monotonic clock and the acceleration in m/s².
///
/// At rest the vector points along gravity: an upright portrait device reads about (0, -9.8, 0).
public struct AccelSample: Sendable, Hashable {
    public var time: Double
    public var acceleration: Vector3

    public init(time: Double, acceleration: Vector3) {
        self.time = time
        self.acceleration = acceleration
    }

    public init(time: Double, x: Double, y: Double, z: Double) {
        self.init(time: time, acceleration: Vector3(x, y, z))
    }
}
