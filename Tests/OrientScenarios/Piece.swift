import OrientCore
import RealModule

/// A slow, irregular movement of the hand: a sum of sines, in degrees.
public struct Wobble: Sendable {
    public var components: [(amplitude: Double, frequency: Double, phase: Double)]

    public static let none = Wobble(components: [])

    public init(components: [(amplitude: Double, frequency: Double, phase: Double)]) {
        self.components = components
    }

    /// Hand wobble of about `degrees` at 0.3 to 2.5 Hz.
    public static func hand(_ degrees: Double, using random: inout SeededRandom) -> Wobble {
        Wobble(components: (0..<3).map { _ in
            (random.uniform(0.3...1.0) * degrees, random.uniform(0.3...2.5), random.uniform(0...(2 * .pi)))
        })
    }

    public func value(at t: Double) -> Double {
        components.reduce(0) { sum, c in sum + c.amplitude * Double.sin(2 * .pi * c.frequency * t + c.phase) }
    }
}

/// One stretch of a scenario's timeline.
public enum Piece: Sendable {
    /// Held still (but for the hand's wobble) at a pose.
    case hold(Pose, seconds: Double, wobble: Wobble = .none)
    /// A deliberate turn from the previous pose to this one, eased in and out, ending with the hand at rest.
    case rotate(to: Pose, seconds: Double)
    /// Hovering at a pose between two orientations: either is right, but at most one change is allowed.
    case hover(Pose, seconds: Double, wobble: Wobble, allowed: Set<DeviceOrientation>)
    /// Shaken hard at the previous pose: nothing may be committed.
    case shake(seconds: Double, amplitude: Double)
    /// Carried while walking, at a pose.
    case walk(Pose, seconds: Double)
    /// Dropped: free fall, then a hard landing at the given pose.
    case drop(fallSeconds: Double, landing: Pose)

    public var seconds: Double {
        switch self {
        case .hold(_, let s, _), .rotate(_, let s), .hover(_, let s, _, _), .shake(let s, _), .walk(_, let s): s
        case .drop(let fall, _): fall + 0.05
        }
    }
}
