import OrientCore
import OrientProtocol
import OrientSampleSource

/// What the daemon knows and the rules that follow from it alone: the system's view, when the state is fresh,
/// when views are held upright, and what a new client's view starts as. No subscribers, sockets or timers: each
/// change returns what it asks of the subscribers' views (the system's own is updated here).
struct PublishedState {
    private(set) var settings: Publisher.Settings
    private(set) var persistent: PersistentState
    /// The interface orientation under the system mask alone: what `get` reports.
    private(set) var systemView: InterfaceOrientationTracker
    private(set) var device: DeviceOrientation = .unknown
    private(set) var time: Double?
    private(set) var sensor: SensorState = .none
    /// A convertible's posture, tablet mode and hinge angle: unknown without a base sensor.
    private(set) var hinge = HingeState.unknown
    /// The display's tilt as iio-sensor-proxy names it, for its D-Bus property only: no subscriber's state holds it.
    private(set) var tilt = AccelerometerTilt.undefined
    private(set) var sensorDescription: SensorDescription?
    /// The sensor is open and reading (not closed for want of clients, not lost).
    private var sensorReading = false
    /// The sensor has committed an orientation since it was last opened.
    private var committedSinceOpened = false
    /// What the first sample since the sensor was last opened showed alone; `nil` before it. iio-sensor-proxy's
    /// orientation property shows it until an orientation is committed.
    private(set) var firstReading: DeviceOrientation?
    /// The convertible's posture has been committed since the sensors were last opened.
    private var postureSinceOpened = false
    /// A replayed trace ran out: nothing fresh will come.
    private(set) var sourceHasEnded = false

    init(settings: Publisher.Settings, persistent: PersistentState) {
        self.settings = settings
        self.persistent = persistent
        // A stored mask is non-empty by construction; fall back to `all` rather than fail at start.
        self.systemView = (try? InterfaceOrientationTracker(
            systemMask: persistent.mask ?? settings.configuredMask, preferred: settings.preferred,
            systemLocked: persistent.locked
        )) ?? (try! InterfaceOrientationTracker())
    }

    var systemMask: InterfaceOrientationMask { persistent.mask ?? settings.configuredMask }

    /// Out of tablet mode under rotate-in = tablet-mode, every interface (the system's and each client's) is held
    /// upright for the keyboard.
    var holdsUpright: Bool { (settings.rotateIn ?? .tabletMode) == .tabletMode && hinge.tabletMode == false }

    /// The device orientation a convertible held for the keyboard shows: the panel upright as installed.
    var uprightForKeyboard: DeviceOrientation { settings.panel.natural.deviceOrientation(for: .normal) }

    /// How far the content turns to show `interface` upright on this panel.
    func rotation(of interface: InterfaceOrientation) -> Int? {
        settings.panel.natural.pose(showing: interface)?.rotation
    }

    /// What holding or releasing the views for the keyboard asks of them.
    private var heldUpright: ViewUpdate.Hold { ViewUpdate.Hold(held: holdsUpright, upright: uprightForKeyboard) }

    /// The state under the system mask (`get`, and the replies to control requests).
    var systemState: OrientationState {
        OrientationState(
            device: device, interface: systemView.interface, rotation: rotation(of: systemView.interface),
            locked: persistent.locked, mask: systemMask, sensor: sensor, time: time, hinge: hinge)
    }

    /// Whether the device orientation, and on a convertible the posture, come from the sensors as they read now,
    /// not from before they were closed. Both are waited for: under rotate-in = tablet-mode the interface a `get`
    /// answers depends on the posture.
    var isFresh: Bool {
        sensorReading && committedSinceOpened && (sensorDescription?.readsPosture != true || postureSinceOpened)
    }

    /// How long a `get` should wait for the state to become fresh; `nil` to answer at once (it is fresh, it
    /// cannot become so, or no wait is configured).
    var freshWait: Double? { isFresh || sourceHasEnded ? nil : settings.freshWait }

    /// The view of a client that arrives now with `settings`, fed the device orientation as it is.
    func clientView(_ settings: SubscriptionSettings) throws(EmptyMaskError) -> InterfaceOrientationTracker {
        var view = try InterfaceOrientationTracker(
            systemMask: systemMask, clientMask: settings.mask, preferred: settings.preferred,
            autorotates: settings.autorotate, systemLocked: persistent.locked)
        // Before the device is fed: a client that arrives out of tablet mode starts upright, as the others are.
        view.setHeldUpright(holdsUpright, upright: uprightForKeyboard)
        view.update(device: device)
        return view
    }

    /// The state a client with this view is told.
    func state(seenBy view: InterfaceOrientationTracker) -> OrientationState {
        OrientationState(
            device: device, interface: view.interface, rotation: rotation(of: view.interface),
            locked: view.rotationLocked, mask: view.effectiveMask, sensor: sensor, time: time, hinge: hinge)
    }

    // MARK: The sensor

    mutating func sensorOpened(_ description: SensorDescription) -> ViewUpdate {
        sensorDescription = description
        sensor = .available
        sensorReading = true
        committedSinceOpened = false
        firstReading = nil
        postureSinceOpened = false
        // With a base or hinge sensor the last posture is kept until the new readings commit one, as the device
        // orientation is; without one there is none.
        return description.readsPosture ? ViewUpdate() : forgetHinge()
    }

    /// The sensor service released the sensor (nobody wants it): the state is kept, but is no longer fresh.
    mutating func sensorReleased() {
        sensorReading = false
        firstReading = nil
    }

    /// The first sample since the sensor was opened reached the engine, and showed `first` alone.
    mutating func sensorRead(first: DeviceOrientation) {
        firstReading = first
    }

    /// The device orientation iio-sensor-proxy's clients are shown: the committed one, or until the sensor
    /// commits one after an open, what its first sample showed.
    var deviceForSensorProxy: DeviceOrientation {
        committedSinceOpened ? device : firstReading ?? device
    }

    /// A replayed trace ran out.
    mutating func sourceEnded() {
        sourceHasEnded = true
    }

    /// What one sample changed: the committed device orientation, and a convertible's posture, tablet mode or
    /// hinge angle.
    mutating func sensorChanged(
        device: DeviceOrientation?, posture change: PostureEngine.Change?, time: Double
    ) -> ViewUpdate {
        self.time = time
        var update = ViewUpdate(device: device)
        if let device {
            self.device = device
            committedSinceOpened = true
        }
        if let change {
            hinge.apply(change)
            if change.posture != nil { postureSinceOpened = true }
            // After the device, as the engine does it.
            if change.tabletMode != nil { update.heldUpright = heldUpright }
        }
        systemView.apply(update)
        return update
    }

    /// The engine's tilt changed.
    mutating func tiltChanged(_ tilt: AccelerometerTilt) {
        self.tilt = tilt
    }

    /// A convertible's base sensor went away while the display's goes on: posture, tablet mode and hinge angle are
    /// unknown, and the display alone turns the screen again, as on a tablet.
    mutating func baseLost() -> ViewUpdate {
        sensorDescription?.base = nil  // `status` no longer names it
        return forgetHinge()
    }

    /// A kernel hinge sensor went away while the display's goes on: as ``baseLost()``.
    mutating func hingeLost() -> ViewUpdate {
        sensorDescription?.hinge = nil
        return forgetHinge()
    }

    /// The sensor went away (or no sensor exists): the device orientation is unknown until one is back.
    /// Once a sensor has been seen, its absence is `unavailable`; `none` means none was ever found.
    mutating func sensorLost(_ state: SensorState) -> ViewUpdate {
        sensor = state == .none && sensorDescription != nil ? .unavailable : state
        device = .unknown
        sensorReading = false
        firstReading = nil
        hinge = .unknown
        tilt = .undefined
        let update = ViewUpdate(device: .unknown, heldUpright: heldUpright)
        systemView.apply(update)
        return update
    }

    private mutating func forgetHinge() -> ViewUpdate {
        hinge = .unknown
        let update = ViewUpdate(heldUpright: heldUpright)
        systemView.apply(update)
        return update
    }

    // MARK: Control and configuration

    /// The persistent state a control request would leave: the lock, or the system mask (`nil`: back to the
    /// configured one).
    func proposed(_ change: ControlChange) -> PersistentState {
        var next = persistent
        switch change {
        case .locked(let locked): next.locked = locked
        case .mask(let mask): next.mask = mask
        }
        return next
    }

    /// Puts a saved persistent state in force.
    mutating func apply(_ next: PersistentState) -> ViewUpdate {
        let lockChanged = next.locked != persistent.locked
        persistent = next
        let update = ViewUpdate(systemLocked: lockChanged ? next.locked : nil, systemMask: systemMask)
        systemView.apply(update)
        return update
    }

    /// Puts reloaded settings in force (the publisher has checked their mask against its subscribers).
    mutating func reconfigure(_ settings: Publisher.Settings) -> ViewUpdate {
        self.settings = settings
        systemView.setHeldUpright(holdsUpright, upright: uprightForKeyboard)
        // The system view has no client of its own; only the configured preferred orientation applies to it.
        _ = try? systemView.setClient(
            mask: systemView.clientMask, preferred: settings.preferred, autorotates: systemView.autorotates)
        _ = try? systemView.setSystemMask(systemMask)
        return ViewUpdate(heldUpright: heldUpright, systemMask: systemMask)
    }
}
