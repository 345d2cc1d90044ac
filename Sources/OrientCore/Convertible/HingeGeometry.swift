import RealModule

/// The geometry of a convertible's two accelerometers, each read in its own device frame.
///
/// Both frames have x along the hinge. The display frame is the one the classifier uses (y up the screen, z out of
/// it); the base frame is the keyboard's, chosen so that with the lid opened flat (180°) the two frames coincide:
/// y away from the user towards the hinge, z out of the keys. Opening the lid to θ turns the display frame about
/// x by θ − 180° from the base frame, so a reading r in the base frame reads `rotate(r, by: θ − 180°)` in the
/// display frame. A laptop open at 90° on a desk reads base (0, 0, −g) and display (0, −g, 0).
public enum HingeGeometry {
    /// The hinge angle in [0°, 360°) that turns base reading `base` into display reading `display`, from their
    /// projections on the y–z plane (gravity along the hinge tells nothing about it). 0° and 360° (closed and
    /// folded flat) read the same: ``HingeAngleEstimator`` tells them apart by continuity.
    public static func angle(display: Vector3, base: Vector3) -> Double {
        let displayAngle = Double.atan2(y: display.z, x: display.y)
        let baseAngle = Double.atan2(y: base.z, x: base.y)
        return normalized(180 + (displayAngle - baseAngle) * 180 / .pi)
    }

    /// What the display sensor reads at hinge angle `theta` when the base reads `base`.
    public static func display(fromBase base: Vector3, hingeAngle theta: Double) -> Vector3 {
        rotateAboutX(base, degrees: theta - 180)
    }

    /// What the base sensor reads at hinge angle `theta` when the display reads `display`.
    public static func base(fromDisplay display: Vector3, hingeAngle theta: Double) -> Vector3 {
        rotateAboutX(display, degrees: 180 - theta)
    }

    /// The angle in degrees between `v` and the hinge (the x axis), folded into [0°, 90°]: 0° when gravity runs
    /// along the hinge and the angle cannot be read.
    public static func elevationFromHinge(_ v: Vector3) -> Double {
        let across = (v.y * v.y + v.z * v.z).squareRoot()
        return Double.atan2(y: across, x: abs(v.x)) * 180 / .pi
    }

    /// `degrees` brought into [0, 360).
    public static func normalized(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : (r >= 360 ? 0 : r)
    }

    static func rotateAboutX(_ v: Vector3, degrees: Double) -> Vector3 {
        let a = degrees * .pi / 180
        let c = Double.cos(a)
        let s = Double.sin(a)
        return Vector3(v.x, v.y * c - v.z * s, v.y * s + v.z * c)
    }
}
