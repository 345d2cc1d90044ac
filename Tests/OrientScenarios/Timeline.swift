import RealModule

/// One stretch of a timeline: how long it lasts, and the pose it leaves the device in.
protocol TimelinePiece {
    associatedtype Pose
    var seconds: Double { get }
    /// The pose at the end of this piece, when it began at `start`.
    func pose(after start: Pose) -> Pose
}

/// The pieces of a scenario laid end to end, each knowing when it starts and the pose it starts from.
/// Shared by the tablet scenarios (``Piece``, ``Pose``) and the convertible ones (``FoldPiece``, ``FoldPose``).
struct Timeline<Stretch: TimelinePiece> {
    struct Placed {
        let piece: Stretch
        let start: Double
        let from: Stretch.Pose
        var end: Double { start + piece.seconds }
    }

    let placed: [Placed]
    let duration: Double

    init(start: Stretch.Pose, pieces: [Stretch]) {
        var placed: [Placed] = []
        var t = 0.0
        var pose = start
        for piece in pieces {
            placed.append(Placed(piece: piece, start: t, from: pose))
            pose = piece.pose(after: pose)
            t += piece.seconds
        }
        self.placed = placed
        self.duration = t
    }

    /// The piece under way at `t`, and the time since it began.
    func current(at t: Double) -> (placed: Placed, local: Double) {
        let current = placed[SampleTimes.piece(at: t, in: placed, start: \.start)]
        return (current, t - current.start)
    }
}

/// How a hand moves a device, the same in every scenario.
enum Hand {
    /// A deliberate move's progress at `u` (0 to 1) of its time: eased in and out.
    static func eased(_ u: Double) -> Double { u * u * (3 - 2 * u) }

    /// The hand speeds up, then slows down: the acceleration pulse of a move at `u` of its time, m/s².
    static func push(_ u: Double) -> Double { 2.0 * Double.sin(2 * .pi * u) }
}

/// Walking at 1.9 steps a second: vertical bobbing at the step rate, a sideways sway at half of it, and the
/// device rocking with both.
struct Gait {
    let step: Double

    init(at t: Double) { step = 2 * .pi * 1.9 * t }

    /// The vertical acceleration, m/s².
    var vertical: Double { 2.5 * Double.sin(step) }
    /// The sideways acceleration along the device's x axis, m/s².
    var sway: Double { 0.8 * Double.sin(step / 2) }

    /// `pose` as the walk rocks it.
    func rocking(_ pose: Pose) -> Pose {
        Pose(angle: pose.angle + 3 * Double.sin(step / 2), tilt: pose.tilt + 4 * Double.sin(step))
    }
}

extension Pose {
    /// The pose `u` of the way from `a` to `b`, both angles linearly.
    static func interpolate(_ a: Pose, _ b: Pose, _ u: Double) -> Pose {
        Pose(angle: a.angle + (b.angle - a.angle) * u, tilt: a.tilt + (b.tilt - a.tilt) * u)
    }
}
