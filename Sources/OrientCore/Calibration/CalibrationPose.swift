/// The poses `orientd calibrate` asks for, and the gravity each sensor's device frame must read in them.
///
/// Device frames as the rest of orientd uses them (docs/orientations.md): the display's x toward its right edge,
/// y toward its top edge, z out of the screen, and readings pointing along gravity (upright reads (0, -1, 0) g). A
/// convertible's base frame is the one ``HingeGeometry`` and the posture code use: the display's frame when the lid
/// is opened flat (180°), so x runs along the hinge, y from the front edge of the keyboard toward the hinge, z out
/// of the keys; a laptop open on a table reads base (0, 0, -1) g.
public enum CalibrationPose: String, Sendable, CaseIterable, Codable {
    /// Upright in its natural orientation; a convertible opened to about 90-130° on a table.
    case upright
    /// Stood on its right edge, the left edge up; a convertible still open, stood on its right side.
    case leftEdgeUp = "left-edge-up"
    /// Stood on its top edge, a tablet only: a convertible cannot stand on its head.
    case upsideDown = "upside-down"
    /// Lying flat, screen up; a convertible folded into a tablet.
    case flat

    /// Gravity in the display's device frame, as a unit vector. Upright on a convertible the display leans back
    /// by the opening beyond 90°, which this does not know: see ``MountCalibration``.
    public var displayGravity: Vector3 {
        switch self {
        case .upright: Vector3(0, -1, 0)
        case .leftEdgeUp: Vector3(1, 0, 0)
        case .upsideDown: Vector3(0, 1, 0)
        case .flat: Vector3(0, 0, -1)
        }
    }

    /// Gravity in a convertible base's frame: flat on the table when the laptop stands open, x (the hinge) pointing
    /// down when stood on its right side, keys down when folded into a tablet. `nil` upside down, a pose no
    /// convertible is asked for.
    ///
    /// Folded, not opened flat: a base that lay keys down in pose 1 (the convertible standing as a stand, which the
    /// display cannot tell from standing open) gives a matrix turned half a turn about the hinge, and only a pose in
    /// which the base must read keys down catches it.
    public var baseGravity: Vector3? {
        switch self {
        case .upright: Vector3(0, 0, -1)
        case .leftEdgeUp: Vector3(1, 0, 0)
        case .upsideDown: nil
        case .flat: Vector3(0, 0, 1)
        }
    }

    /// The pose in words, for the person holding the device.
    public var name: String {
        switch self {
        case .upright: "upright"
        case .leftEdgeUp: "left edge up"
        case .upsideDown: "upside down"
        case .flat: "lying flat"
        }
    }
}
