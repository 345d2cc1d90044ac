/// What `follow` needs from one of orientd's states: the interface orientation, the locks and tablet mode.
public struct FollowState: Sendable, Equatable {
    public var interface: String
    /// The system's rotation lock, or this subscriber's own `--no-autorotate`: either holds the screen.
    public var locked: Bool
    /// `nil` when unknown (no base sensor).
    public var tabletMode: Bool?
    /// The daemon's `rotation` field, when it sends one (0, 90, 180, 270: degrees counter-clockwise).
    public var rotation: Int?

    public init(interface: String, locked: Bool = false, tabletMode: Bool? = nil, rotation: Int? = nil) {
        self.interface = interface
        self.locked = locked
        self.tabletMode = tabletMode
        self.rotation = rotation
    }

    /// The content's turn on the panel, counter-clockwise, for the interface shown; `nil` while it is unknown.
    ///
    /// The daemon's own `rotation` wins when it sends one. Until then it is derived as a portrait panel would
    /// have it (docs/natural-orientation-and-compositors: the pose of the row whose interface column it is), which
    /// is what the README's `watch --exec` recipe assumed too.
    public var contentRotation: Int? {
        if let rotation, [0, 90, 180, 270].contains(rotation) { return rotation }
        switch interface {
        case "portrait": return 0
        case "landscape-left": return 90
        case "portrait-upside-down": return 180
        case "landscape-right": return 270
        default: return nil
        }
    }
}
