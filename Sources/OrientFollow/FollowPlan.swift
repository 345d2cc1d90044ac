/// One change `follow` asks of a compositor.
public enum FollowAction: Sendable, Equatable {
    /// Turn the output so that content turned `rotation` degrees counter-clockwise appears upright.
    case transform(rotation: Int)
    /// Map the touchscreen to the output (with the rotation, for compositors that turn touch input separately).
    case mapTouch(rotation: Int)
    /// Map the pen (tablet tools) to the output.
    case mapPen(rotation: Int)
    /// Turn input devices on or off (a convertible's keyboard and touchpad in tablet mode).
    case inputs([String], enabled: Bool)
}

/// What the user asked `follow` to handle.
public struct FollowSettings: Sendable, Equatable {
    public var touch = true
    public var pen = true
    public var disableInTabletMode: [String] = []

    public init(touch: Bool = true, pen: Bool = true, disableInTabletMode: [String] = []) {
        self.touch = touch
        self.pen = pen
        self.disableInTabletMode = disableInTabletMode
    }
}

/// The pure decisions: from the last state applied to a compositor connection and a new state, the actions.
///
/// A locked screen is never turned, not even when `follow` starts or reconnects: the lock is how a user keeps
/// the screen where it is (or where they set it by hand). When the lock is released the current rotation is
/// applied at once. Tablet mode is followed whatever the lock.
public struct FollowPlanner: Sendable {
    public let settings: FollowSettings
    /// The rotation last applied on this compositor connection; `nil` before the first, and after a lock.
    public private(set) var appliedRotation: Int?
    public private(set) var appliedTabletMode: Bool?

    public init(settings: FollowSettings) {
        self.settings = settings
    }

    public mutating func actions(for state: FollowState) -> [FollowAction] {
        var actions: [FollowAction] = []
        if state.locked {
            appliedRotation = nil
        } else if let rotation = state.contentRotation, rotation != appliedRotation {
            actions.append(.transform(rotation: rotation))
            if settings.touch { actions.append(.mapTouch(rotation: rotation)) }
            if settings.pen { actions.append(.mapPen(rotation: rotation)) }
            appliedRotation = rotation
        }
        if !settings.disableInTabletMode.isEmpty, let tabletMode = state.tabletMode, tabletMode != appliedTabletMode {
            // Off in tablet mode; on when it ends. At start, outside tablet mode, they are turned on, in case an
            // earlier follow stopped while they were off.
            actions.append(.inputs(settings.disableInTabletMode, enabled: !tabletMode))
            appliedTabletMode = tabletMode
        }
        return actions
    }
}
