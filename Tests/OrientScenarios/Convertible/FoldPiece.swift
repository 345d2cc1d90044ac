/// One stretch of a convertible scenario's timeline.
public enum FoldPiece: Sendable {
    /// Held or standing still (but for the hand's wobble) at a pose.
    case hold(FoldPose, seconds: Double, wobble: Wobble = .none)
    /// Typed on: key jolts through the whole device and the lid shaking a degree about the hinge. On a lap the
    /// jolts are harder (knees) and the hand's wobble is larger.
    case typing(FoldPose, seconds: Double, onLap: Bool)
    /// A deliberate move from the previous pose to this one (opening, folding, turning), eased in and out.
    case move(to: FoldPose, seconds: Double)
    /// Carried while walking at a pose: nothing may change.
    case walk(FoldPose, seconds: Double)
    /// Held with the hinge near vertical (a book), wobbling: the angle cannot be read, and nothing may change.
    case book(FoldPose, seconds: Double, wobble: Wobble)

    public var seconds: Double {
        switch self {
        case .hold(_, let s, _), .typing(_, let s, _), .move(_, let s), .walk(_, let s), .book(_, let s, _): s
        }
    }
}
