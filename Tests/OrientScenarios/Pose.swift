import OrientCore
import RealModule

/// How a device is held, as two angles in degrees.
///
/// `angle` turns the device in the screen plane: 0 portrait, 90 landscape-right (left edge up), 180 upside down,
/// 270 landscape-left. `tilt` leans the screen back: 0 vertical, +90 face up, -90 face down.
public struct Pose: Sendable, Equatable {
    public var angle: Double
    public var tilt: Double

    public init(angle: Double, tilt: Double = 0) {
        self.angle = angle
        self.tilt = tilt
    }

    public static func upright(_ orientation: DeviceOrientation, tilt: Double = 0) -> Pose {
        let angle: Double =
            switch orientation {
            case .landscapeRight: 90
            case .portraitUpsideDown: 180
            case .landscapeLeft: 270
            default: 0
            }
        return Pose(angle: angle, tilt: tilt)
    }

    /// The accelerometer reading at rest, in the device frame: gravity, as Linux sensors report it.
    public func reading(gravity g: Double = 9.80665) -> Vector3 {
        let a = angle * .pi / 180
        let t = tilt * .pi / 180
        let inPlane = Double.cos(t) * g
        return Vector3(Double.sin(a) * inPlane, -Double.cos(a) * inPlane, -Double.sin(t) * g)
    }

    /// What an ideal classifier calls this pose: flat within 15 degrees, else the nearest upright orientation.
    public var idealOrientation: DeviceOrientation {
        if tilt >= 75 { return .faceUp }
        if tilt <= -75 { return .faceDown }
        let normalized = (angle.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        switch normalized {
        case 45..<135: return .landscapeRight
        case 135..<225: return .portraitUpsideDown
        case 225..<315: return .landscapeLeft
        default: return .portrait
        }
    }
}
