import OrientCore

/// How a convertible is held: the display's attitude (as a ``Pose``) and the hinge angle θ in degrees.
///
/// The two together fix both sensors' readings: gravity's direction in the display frame, and the base frame
/// turned from it about the hinge (``HingeGeometry``).
public struct FoldPose: Sendable, Equatable {
    public var display: Pose
    public var hinge: Double

    public init(display: Pose, hinge: Double) {
        self.display = display
        self.hinge = hinge
    }

    /// A laptop on a desk open to `hinge`: the keyboard flat, the screen leaning back by `hinge` − 90°.
    public static func onDesk(_ hinge: Double) -> FoldPose {
        FoldPose(display: Pose(angle: 0, tilt: hinge - 90), hinge: hinge)
    }

    /// Folded into a tablet, held at `angle` in the screen plane, leaning back `tilt` degrees.
    public static func tablet(angle: Double, tilt: Double = 30) -> FoldPose {
        FoldPose(display: Pose(angle: angle, tilt: tilt), hinge: 360)
    }

    /// Standing on its keys, the screen up in front, leaning back `tilt`.
    public static func stand(_ hinge: Double = 290) -> FoldPose {
        FoldPose(display: Pose(angle: 0, tilt: hinge - 270), hinge: hinge)
    }

    /// Standing as a tent on its two outer edges, hinge up: the screen reads upside down, leaning back half of
    /// the angle the two halves make outside.
    public static func tent(_ hinge: Double = 300) -> FoldPose {
        FoldPose(display: Pose(angle: 180, tilt: (360 - hinge) / 2), hinge: hinge)
    }

    /// The display and base readings at rest (gravity only), each in its device frame.
    public func readings(gravity g: Double = 9.80665) -> (display: Vector3, base: Vector3) {
        let display = self.display.reading(gravity: g)
        return (display, HingeGeometry.base(fromDisplay: display, hingeAngle: hinge))
    }

    /// What a good tracker calls this pose beyond flat: a stand when the base is within 45° of face down.
    public var idealPosture: Posture {
        let h = hinge
        if h < PostureTracker.Band.closedBelow { return .closed }
        if h < PostureTracker.Band.flatFrom { return .laptop }
        if h <= PostureTracker.Band.flatTo { return .flat }
        if h >= PostureTracker.Band.tabletFrom { return .tablet }
        let base = readings().base
        return base.z > 0.7071 * base.length ? .stand : .tent
    }
}
