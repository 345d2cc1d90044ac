import OrientCore

/// What a change of the published state asks of every interface view, the system's and each subscriber's:
/// `nil` where it asks nothing.
struct ViewUpdate: Equatable {
    var device: DeviceOrientation?
    var systemLocked: Bool?
    /// Held upright for the keyboard (out of tablet mode under rotate-in = tablet-mode), or released.
    var heldUpright: Hold?
    var systemMask: InterfaceOrientationMask?

    /// Held or released, and the device orientation that shows the panel upright as installed (`portrait` on a
    /// portrait panel, `landscape-left` on a landscape one).
    struct Hold: Equatable {
        var held: Bool
        var upright: DeviceOrientation
    }
}

extension InterfaceOrientationTracker {
    /// Applies the update: the device first, as the engine does it; the mask last, as the mask in force.
    /// A system mask that would leave the view nothing is skipped: the publisher refuses such masks, and a
    /// subscriber that came while one was being saved keeps the old one.
    mutating func apply(_ update: ViewUpdate) {
        if let device = update.device { self.update(device: device) }
        if let locked = update.systemLocked { setSystemLocked(locked) }
        if let hold = update.heldUpright { setHeldUpright(hold.held, upright: hold.upright) }
        if let mask = update.systemMask { _ = try? setSystemMask(mask) }
    }
}
