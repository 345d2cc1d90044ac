/// One accelerometer reading: seconds on a monotonic clock and the acceleration in m/s².
///
/// At rest the vector points along gravity: an upright portrait device reads about (0, -9.8, 0).
/// On a convertible, `base` is the keyboard's sensor read at the same time (each in its own sensor frame until
/// the engines apply the mount matrices), and `hinge` what a kernel hinge sensor read with it; the classifier looks
/// at `acceleration` only.
public struct AccelSample: Sendable, Hashable {
    public var time: Double
    public var acceleration: Vector3
    public var base: Vector3?
    public var hinge: KernelHingeAngle?

    public init(time: Double, acceleration: Vector3, base: Vector3? = nil, hinge: KernelHingeAngle? = nil) {
        self.time = time
        self.acceleration = acceleration
        self.base = base
        self.hinge = hinge
    }

    public init(time: Double, x: Double, y: Double, z: Double) {
        self.init(time: time, acceleration: Vector3(x, y, z))
    }
}
