import OrientCore

/// What the daemon knows of a convertible's hinge: the same for every client, and `unknown` without a base sensor.
public struct HingeState: Sendable, Hashable {
    public var posture: Posture
    /// `nil` while unknown (no base sensor, or no angle read yet).
    public var tabletMode: Bool?
    /// In whole degrees, `nil` while it cannot be read (hinge vertical, motion, no base sensor).
    public var hingeAngle: Double?

    public init(posture: Posture = .unknown, tabletMode: Bool? = nil, hingeAngle: Double? = nil) {
        self.posture = posture
        self.tabletMode = tabletMode
        self.hingeAngle = hingeAngle
    }

    public static let unknown = HingeState()
}
