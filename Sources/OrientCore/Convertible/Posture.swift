/// How a convertible is folded and standing, from its hinge angle θ and the base's attitude.
///
/// The raw values are the wire names used on the socket and in `orientd classify`'s output.
public enum Posture: String, Sendable, CaseIterable, Hashable, Codable {
    /// No base sensor, no angle read yet, or a sensor gone.
    case unknown
    /// Lid shut: θ near 0°.
    case closed
    /// Lid open up to about flat: the keyboard in use.
    case laptop
    /// Opened to about 180°.
    case flat
    /// Beyond 180°, standing on the two outer edges with the hinge up (the screen reads upside down).
    case tent
    /// Beyond 180°, the keyboard face down on the table, the screen up in front of it.
    case stand
    /// Folded back to about 360°: the keyboard behind the screen.
    case tablet
}

extension Posture: CustomStringConvertible {
    public var description: String { rawValue }
}
