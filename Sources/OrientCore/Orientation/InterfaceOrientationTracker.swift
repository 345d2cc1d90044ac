/// The interface orientation one client sees, kept as iOS keeps it per view controller.
///
/// Holds the client's own mask, preferred orientation and autorotation switch, and its current interface
/// orientation. Every change of device orientation, system mask, lock or client setting is resolved at once.
public struct InterfaceOrientationTracker: Sendable, Equatable {
    public private(set) var systemMask: InterfaceOrientationMask
    public private(set) var clientMask: InterfaceOrientationMask
    public private(set) var preferred: InterfaceOrientation?
    /// `false` is UIKit's `shouldAutorotate = NO`: this client's interface stays where it is.
    public private(set) var autorotates: Bool
    public private(set) var systemLocked: Bool
    /// Out of tablet mode under `rotate-in = tablet-mode`: held upright for the keyboard (see ``setHeldUpright(_:)``).
    public private(set) var heldUpright = false
    public private(set) var device: DeviceOrientation
    public private(set) var interface: InterfaceOrientation

    public init(
        systemMask: InterfaceOrientationMask = .all,
        clientMask: InterfaceOrientationMask = .all,
        preferred: InterfaceOrientation? = nil,
        autorotates: Bool = true,
        systemLocked: Bool = false,
        interface: InterfaceOrientation = .unknown
    ) throws(EmptyMaskError) {
        guard !systemMask.intersection(clientMask).isEmpty else {
            throw EmptyMaskError(systemMask: systemMask, clientMask: clientMask)
        }
        self.systemMask = systemMask
        self.clientMask = clientMask
        self.preferred = preferred
        self.autorotates = autorotates
        self.systemLocked = systemLocked
        self.device = .unknown
        // A view that takes over from another (a one-shot `get` starts from the system's) keeps what it showed.
        self.interface = interface
    }

    /// Every orientation allowed, none preferred, unlocked: the engine's own view where masks are applied later.
    public static var unrestricted: InterfaceOrientationTracker {
        do { return try InterfaceOrientationTracker() } catch { preconditionFailure("all ∩ all is never empty") }
    }

    public var effectiveMask: InterfaceOrientationMask { systemMask.intersection(clientMask) }
    public var isLocked: Bool { systemLocked || !autorotates || heldUpright }

    /// Feeds a new device orientation. Returns whether the interface orientation changed.
    @discardableResult
    public mutating func update(device: DeviceOrientation) -> Bool {
        self.device = device
        return reresolve()
    }

    /// Sets the system lock. Locking never changes the interface; unlocking may (to the device's orientation).
    @discardableResult
    public mutating func setSystemLocked(_ locked: Bool) -> Bool {
        systemLocked = locked
        return reresolve()
    }

    /// Holds the interface as a laptop's: on holding, it turns to what `upright` gives (the screen the right way
    /// up for the keyboard: the panel's normal pose, `portrait` on a portrait panel and `landscape-left` on a
    /// landscape one) unless a lock already holds it, then stays there whatever the device does; on release it
    /// follows the device again.
    @discardableResult
    public mutating func setHeldUpright(_ held: Bool, upright: DeviceOrientation = .portrait) -> Bool {
        guard held != heldUpright else { return false }
        let before = interface
        if held {
            let device = self.device
            self.device = upright
            reresolve()
            self.device = device
        }
        heldUpright = held
        reresolve()
        return interface != before
    }

    /// Changes the system mask. An empty effective mask is refused and nothing changes.
    @discardableResult
    public mutating func setSystemMask(_ mask: InterfaceOrientationMask) throws(EmptyMaskError) -> Bool {
        try checkEffective(system: mask, client: clientMask)
        systemMask = mask
        return reresolve()
    }

    /// Changes this client's settings (UIKit's `setNeedsUpdateOfSupportedInterfaceOrientations`).
    /// An empty effective mask is refused and nothing changes.
    @discardableResult
    public mutating func setClient(
        mask: InterfaceOrientationMask,
        preferred: InterfaceOrientation?,
        autorotates: Bool
    ) throws(EmptyMaskError) -> Bool {
        try checkEffective(system: systemMask, client: mask)
        clientMask = mask
        self.preferred = preferred
        self.autorotates = autorotates
        return reresolve()
    }

    private func checkEffective(
        system: InterfaceOrientationMask,
        client: InterfaceOrientationMask
    ) throws(EmptyMaskError) {
        if system.intersection(client).isEmpty { throw EmptyMaskError(systemMask: system, clientMask: client) }
    }

    @discardableResult
    private mutating func reresolve() -> Bool {
        // The effective mask is checked non-empty on every path that changes it, so this cannot throw.
        let next = (try? OrientationResolver.resolve(
            device: device, mask: effectiveMask, current: interface, preferred: preferred, locked: isLocked
        )) ?? interface
        defer { interface = next }
        return next != interface
    }
}
