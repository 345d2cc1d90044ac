import OrientCore

/// What a control request (`lock`, `unlock`, `set-mask`) changes in the persistent state.
public enum ControlChange: Sendable, Equatable {
    case locked(Bool)
    /// `nil`: back to the configured mask.
    case mask(InterfaceOrientationMask?)
}
