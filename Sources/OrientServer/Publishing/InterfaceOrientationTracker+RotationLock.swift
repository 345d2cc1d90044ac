import OrientCore

extension InterfaceOrientationTracker {
    /// What a state's `locked` reports: the system lock or the client's own. Being held upright out of tablet
    /// mode is no lock a user set (posture and tablet mode say why the screen does not turn).
    var rotationLocked: Bool { systemLocked || !autorotates }
}
