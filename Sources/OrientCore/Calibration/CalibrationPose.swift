/// The three poses `orientd calibrate` asks for, and the gravity each sensor's device frame must read in them.
///
/// Device frames as the rest of orientd uses them (docs/orientations.md): the display's x toward its right edge,
/// y toward its top edge, z out of the screen, and readings pointing along gravity (upright reads (0, -1, 0) g). A
/// convertible's base frame is the one ``HingeGeometry`` and the posture code use: the display's frame when the lid
/// is opened flat (180°), so x runs along the hinge, y from the front edge of the keyboard toward the hinge, z out
/// of the keys; a laptop open on a table reads base (0, 0, -1) g.
public enum CalibrationPose: Int, Sendable, CaseIterable, Codable {
    /// Upright in its natural orientation; a convertible opened to about 90-130° on a table.
    case upright = 1
    /// Stood on its right edge, the left edge up; a convertible still open, stood on its right side.
    case leftEdgeUp = 2
    /// Lying flat, screen up; a convertible opened flat or folded into a tablet.
    case flat = 3

    /// Gravity in the display's device frame, as a unit vector. Upright on a convertible the display leans back
    /// by the opening beyond 90°, which this does not know: see ``CalibrationPlan``.
    public var displayGravity: Vector3 {
        switch self {
        case .upright: Vector3(0, -1, 0)
        case .leftEdgeUp: Vector3(1, 0, 0)
        case .flat: Vector3(0, 0, -1)
        }
    }

    /// Gravity in a convertible base's frame: flat on the table when the laptop stands open, x (the hinge) pointing
    /// down when stood on its right side. Lying flat it reads (0, 0, -1) opened flat and (0, 0, 1) folded into a
    /// tablet, so that pose checks only that z is vertical.
    public var baseGravity: Vector3 {
        switch self {
        case .upright: Vector3(0, 0, -1)
        case .leftEdgeUp: Vector3(1, 0, 0)
        case .flat: Vector3(0, 0, -1)
        }
    }
}
