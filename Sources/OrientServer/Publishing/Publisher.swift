import OrientCore
import OrientProtocol
import OrientSampleSource

/// The daemon's state and its subscribers.
///
/// Not thread-safe by design: it lives on the server's single event loop, and every call comes from there
/// (connections directly, the sensor service by hopping onto the loop). That keeps fan-out to a thousand
/// subscribers a plain loop with no locks and no task switches.
public final class Publisher {
    public struct Settings: Sendable, Equatable {
        public var configuredMask: InterfaceOrientationMask
        public var preferred: InterfaceOrientation?
        public var sampling: SamplingPolicy
        public var mountRepair: Bool
        /// How long a `get` waits for the sensor to commit an orientation when the state is not fresh (seconds);
        /// `nil` answers at once.
        public var freshWait: Double?
        /// `nil`: the engine's default, tablet-mode with a base sensor and always without. Tablet mode is known
        /// only with a base sensor, so here `nil` acts as tablet-mode.
        public var rotateIn: RotateIn?

        public init(
            configuredMask: InterfaceOrientationMask = .all, preferred: InterfaceOrientation? = nil,
            sampling: SamplingPolicy = .onDemand, mountRepair: Bool = true, freshWait: Double? = 1,
            rotateIn: RotateIn? = nil
        ) {
            self.configuredMask = configuredMask
            self.preferred = preferred
            self.sampling = sampling
            self.mountRepair = mountRepair
            self.freshWait = freshWait
            self.rotateIn = rotateIn
        }
    }

    public private(set) var settings: Settings
    private var persistent: PersistentState
    /// The interface orientation under the system mask alone: what `get` reports.
    private var systemView: InterfaceOrientationTracker
    private var device: DeviceOrientation = .unknown
    private var time: Double?
    private var sensor: SensorState = .none
    /// A convertible's posture, tablet mode and hinge angle: unknown without a base sensor.
    private var hinge = HingeState.unknown
    private var sensorDescription: SensorDescription?
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]
    /// The sensor is open and reading (not closed for want of clients, not lost).
    private var sensorReading = false
    /// The sensor has committed an orientation since it was last opened.
    private var committedSinceOpened = false
    /// The convertible's posture has been committed since the sensors were last opened.
    private var postureSinceOpened = false
    /// A replayed trace ran out: nothing fresh will come.
    private var sourceEnded = false
    private var pendingGets = PendingGets()
    private let started: ContinuousClock.Instant = .now
    private let version: String

    /// Called with the new subscriber count whenever it changes (the sensor service opens and closes the sensor).
    public var onSubscriberCountChange: ((Int) -> Void)?
    /// Called with `true` when a `get` waits for a fresh orientation, `false` once it is answered (the sensor
    /// service opens the sensor for it as for a subscriber).
    public var onFreshStateWanted: ((Bool) -> Void)?
    /// Runs the closure on the publisher's event loop after that many seconds (the time limit of a waiting `get`).
    public var schedule: ((Double, @escaping () -> Void) -> Void)?
    /// Called with the system state after anything that may have changed it (the D-Bus facade follows it).
    public var onSystemStateChange: ((OrientationState) -> Void)?

    public init(settings: Settings, persistent: PersistentState, version: String) {
        self.settings = settings
        self.persistent = persistent
        self.version = version
        let mask = persistent.mask ?? settings.configuredMask
        // A stored mask is non-empty by construction; fall back to `all` rather than fail at start.
        self.systemView = (try? InterfaceOrientationTracker(
            systemMask: mask, preferred: settings.preferred, systemLocked: persistent.locked
        )) ?? (try! InterfaceOrientationTracker())
    }

    public var systemMask: InterfaceOrientationMask { persistent.mask ?? settings.configuredMask }
    public var subscriberCount: Int { subscribers.count }
    public var locked: Bool { persistent.locked }

    /// Out of tablet mode under rotate-in = tablet-mode, every interface (the system's and each client's) is held
    /// upright for the keyboard.
    public var holdsUpright: Bool { (settings.rotateIn ?? .tabletMode) == .tabletMode && hinge.tabletMode == false }

    // MARK: Clients

    /// The state under the system mask (`get`, and the replies to control requests).
    public var systemState: OrientationState {
        OrientationState(
            device: device, interface: systemView.interface, locked: persistent.locked, mask: systemMask,
            sensor: sensor, time: time, hinge: hinge
        )
    }

    /// Whether the device orientation, and on a convertible the posture, come from the sensors as they read now,
    /// not from before they were closed. Both are waited for: under rotate-in = tablet-mode the interface a `get`
    /// answers depends on the posture.
    public var isFresh: Bool {
        sensorReading && committedSinceOpened && (sensorDescription?.base == nil || postureSinceOpened)
    }

    /// Answers `get`: the system's view, or with `settings` the view of a client that has them.
    ///
    /// When the state is not fresh and can become so, returns `nil`: the sensor is opened, and the reply goes to
    /// `sink` once it commits an orientation, or when `settings.freshWait` has passed.
    public func get(_ settings: SubscriptionSettings?, from sink: any SubscriberSink, id: RequestID?) -> String? {
        if let settings, systemMask.intersection(settings.mask).isEmpty {
            return Messages.errorReply(ProtocolError(
                .emptyMask, "the mask \(settings.mask) leaves no orientation allowed under the system mask \(systemMask)",
                id: id))
        }
        guard !isFresh, !sourceEnded, let wait = self.settings.freshWait else { return getReply(settings, id: id) }
        if let batch = pendingGets.add(.init(sink: sink, id: id, settings: settings)) {
            onFreshStateWanted?(true)
            schedule?(wait) { [weak self] in self?.answerPendingGets(batch: batch) }
        }
        return nil
    }

    private func getReply(_ settings: SubscriptionSettings?, id: RequestID?) -> String {
        guard let settings else { return Messages.stateReply(id: id, systemState, fresh: isFresh) }
        do {
            // Exactly what a client that subscribed now would be told first.
            var view = try newClientView(settings)
            view.update(device: device)
            let state = OrientationState(
                device: device, interface: view.interface, locked: view.rotationLocked, mask: view.effectiveMask,
                sensor: sensor, time: time, hinge: hinge)
            return Messages.stateReply(id: id, state, fresh: isFresh)
        } catch {
            return Messages.errorReply(ProtocolError(.emptyMask, error.description, id: id))
        }
    }

    /// Answers every waiting `get` with the state as it is. `batch`: only if that batch is still waiting.
    private func answerPendingGets(batch: Int? = nil) {
        guard !pendingGets.isEmpty, batch == nil || batch == pendingGets.batch else { return }
        for waiter in pendingGets.takeAll() { waiter.sink.send(getReply(waiter.settings, id: waiter.id)) }
        onFreshStateWanted?(false)
    }

    /// Subscribes `sink`, or changes its subscription. Returns the reply line.
    public func subscribe(_ sink: any SubscriberSink, settings: SubscriptionSettings, id: RequestID?) -> String {
        let key = ObjectIdentifier(sink)
        if let existing = subscribers[key] {
            let before = existing.tracker.interface
            do {
                try existing.updateSettings(settings)
            } catch {
                return Messages.errorReply(ProtocolError(.emptyMask, error.description, id: id))
            }
            let state = existing.state(sensor: sensor, time: time, hinge: hinge)
            existing.markSent(state)
            let reply = Messages.stateReply(id: id, state)
            // UIKit's setNeedsUpdateOfSupportedInterfaceOrientations: a change it causes is also an event.
            return existing.tracker.interface != before ? reply + Messages.orientationEvent(state) : reply
        }
        let tracker: InterfaceOrientationTracker
        do {
            tracker = try newClientView(settings)
        } catch {
            return Messages.errorReply(ProtocolError(.emptyMask, error.description, id: id))
        }
        let subscriber = Subscriber(sink: sink, settings: settings, tracker: tracker)
        subscriber.update(device: device)
        subscribers[key] = subscriber
        let state = subscriber.state(sensor: sensor, time: time, hinge: hinge)
        subscriber.markSent(state)
        onSubscriberCountChange?(subscribers.count)
        return Messages.stateReply(id: id, state)
    }

    /// The interface tracker of a client that arrives now with `settings`.
    private func newClientView(_ settings: SubscriptionSettings) throws(EmptyMaskError) -> InterfaceOrientationTracker {
        var view = try InterfaceOrientationTracker(
            systemMask: systemMask, clientMask: settings.mask, preferred: settings.preferred,
            autorotates: settings.autorotate, systemLocked: persistent.locked)
        // Before the device is fed: a client that arrives out of tablet mode starts upright, as the others are.
        view.setHeldUpright(holdsUpright)
        return view
    }

    public func unsubscribe(_ sink: any SubscriberSink) {
        guard subscribers.removeValue(forKey: ObjectIdentifier(sink)) != nil else { return }
        onSubscriberCountChange?(subscribers.count)
    }

    /// The sink's connection closed: its subscription and any `get` it waits for go.
    public func disconnected(_ sink: any SubscriberSink) {
        unsubscribe(sink)
        guard !pendingGets.isEmpty else { return }
        pendingGets.remove(sink)
        if pendingGets.isEmpty { onFreshStateWanted?(false) }
    }

    public func isSubscribed(_ sink: any SubscriberSink) -> Bool { subscribers[ObjectIdentifier(sink)] != nil }

    /// The sink's socket drained: it gets the newest state if it missed any.
    public func writable(_ sink: any SubscriberSink) {
        subscribers[ObjectIdentifier(sink)]?.writable(encoded: Messages.orientationEvent)
    }

    /// The persistent state a control request would leave: the lock, or the system mask (`nil`: back to the
    /// configured one). A mask that would leave any subscriber with no allowed orientation is refused.
    /// Nothing changes until ``apply(_:id:)``, once the state is saved.
    public func proposedState(_ change: ControlChange, id: RequestID?) -> Result<PersistentState, ProtocolError> {
        var next = persistent
        switch change {
        case .locked(let locked):
            next.locked = locked
        case .mask(let mask):
            let effective = mask ?? settings.configuredMask
            let stranded = subscribers.values.filter { effective.intersection($0.settings.mask).isEmpty }.count
            if stranded > 0 {
                return .failure(ProtocolError(
                    .emptyMask, "the mask \(effective) would leave \(stranded) subscriber(s) with no allowed orientation",
                    id: id))
            }
            next.mask = mask
        }
        return .success(next)
    }

    /// Puts a saved persistent state in force. Returns the reply to the request that made it.
    public func apply(_ state: PersistentState, id: RequestID?) -> String {
        let lockChanged = state.locked != persistent.locked
        persistent = state
        if lockChanged {
            systemView.setSystemLocked(state.locked)
            for subscriber in subscribers.values { subscriber.setSystemLocked(state.locked) }
        }
        // A subscriber that came while the state was being written and would be stranded keeps the old mask.
        applySystemMask()
        return Messages.stateReply(id: id, systemState)
    }

    public func status(id: RequestID?) -> String {
        let sensorInfo = sensorDescription.map { description in
            let repair = description.mountMatrix.repairingHandedness()
            let base = description.base.map { base in
                let repair = base.mountMatrix.repairingHandedness()
                return StatusReport.BaseSensor(
                    id: base.id, name: base.name, path: base.path, mountMatrix: base.mountMatrix.text,
                    mountMatrixSource: base.mountMatrixSource.description,
                    mountMatrixRepaired: settings.mountRepair && repair.isApplied)
            }
            return StatusReport.Sensor(
                id: description.id, name: description.name, mode: description.mode.rawValue, rate: description.rate,
                mountMatrix: description.mountMatrix.text, mountMatrixSource: description.mountMatrixSource.description,
                mountMatrixRepaired: settings.mountRepair && repair.isApplied,
                location: description.location.rawValue, base: base
            )
        }
        let uptime = started.duration(to: .now)
        let seconds = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) * 1e-18
        return StatusReport(
            version: version, uptime: seconds, subscribers: subscribers.count, sampling: settings.sampling.rawValue,
            sensorState: sensor, sensor: sensorInfo
        ).reply(id: id)
    }

    // MARK: The sensor

    public func sensorOpened(_ description: SensorDescription) {
        sensorDescription = description
        sensor = .available
        sensorReading = true
        committedSinceOpened = false
        postureSinceOpened = false
        // With a base sensor the last posture is kept until the new readings commit one, as the device
        // orientation is; without one there is none.
        if description.baseMountMatrix == nil { forgetHinge() }
        broadcast()
    }

    /// The sensor service closed the sensor (no clients left): the state is kept, but is no longer fresh.
    public func sensorClosed() {
        sensorReading = false
    }

    /// A replayed trace ran out: `get` answers at once from now on.
    public func captureEnded() {
        sourceEnded = true
        answerPendingGets()
    }

    public func deviceChanged(_ device: DeviceOrientation, time: Double) {
        sensorChanged(device: device, posture: nil, time: time)
    }

    /// What one sample changed: the committed device orientation, and a convertible's posture, tablet mode or
    /// hinge angle. Subscribers get one event for both.
    public func sensorChanged(device: DeviceOrientation?, posture change: PostureEngine.Change?, time: Double) {
        self.time = time
        if let device {
            self.device = device
            committedSinceOpened = true
            systemView.update(device: device)
            for subscriber in subscribers.values { subscriber.update(device: device) }
        }
        if let change {
            hinge.apply(change)
            if change.posture != nil { postureSinceOpened = true }
            // After the device, as the engine does it.
            if change.tabletMode != nil { applyHoldUpright() }
        }
        broadcast()
        if isFresh { answerPendingGets() }
    }

    /// A convertible's base sensor went away while the display's goes on: posture, tablet mode and hinge angle are
    /// unknown, and the display alone turns the screen again, as on a tablet.
    public func baseLost() {
        sensorDescription?.base = nil  // `status` no longer names it
        forgetHinge()
        broadcast()
        // No posture to wait for any more.
        if isFresh { answerPendingGets() }
    }

    /// The sensor went away (or no sensor exists): the device orientation is unknown until one is back.
    /// Once a sensor has been seen, its absence is `unavailable`; `none` means none was ever found.
    public func sensorLost(_ state: SensorState) {
        sensor = state == .none && sensorDescription != nil ? .unavailable : state
        device = .unknown
        sensorReading = false
        systemView.update(device: .unknown)
        for subscriber in subscribers.values { subscriber.update(device: .unknown) }
        forgetHinge()
        broadcast()
        // No sensor to wait for: say so now rather than at the time limit.
        answerPendingGets()
    }

    private func forgetHinge() {
        hinge = .unknown
        applyHoldUpright()
    }

    /// Holds every interface upright, or releases it, as tablet mode and rotate-in say.
    private func applyHoldUpright() {
        let held = holdsUpright
        systemView.setHeldUpright(held)
        for subscriber in subscribers.values { subscriber.setHeldUpright(held) }
    }

    // MARK: Configuration

    /// Applies a reloaded configuration. A mask set at run time stays in force. A configured mask that would leave
    /// a subscriber with no allowed orientation is not applied (as `set-mask` refuses it).
    /// - Returns: why part of the configuration was not applied, or `nil`.
    @discardableResult
    public func reconfigure(_ settings: Settings) -> String? {
        var settings = settings
        var problem: String?
        let stranded = subscribers.values.filter {
            (persistent.mask ?? settings.configuredMask).intersection($0.settings.mask).isEmpty
        }.count
        if stranded > 0 {
            problem = "the mask \(settings.configuredMask) would leave \(stranded) subscriber(s) with no allowed orientation; "
                + "keeping \(self.settings.configuredMask)"
            settings.configuredMask = self.settings.configuredMask
        }
        self.settings = settings
        applyHoldUpright()
        // The system view has no client of its own; only the configured preferred orientation applies to it.
        _ = try? systemView.setClient(
            mask: systemView.clientMask, preferred: settings.preferred, autorotates: systemView.autorotates
        )
        applySystemMask()
        return problem
    }

    private func applySystemMask() {
        let mask = systemMask
        _ = try? systemView.setSystemMask(mask)
        for subscriber in subscribers.values { try? subscriber.setSystemMask(mask) }
        broadcast()
    }

    /// Offers every subscriber its current state; each event line is encoded once per distinct state.
    private func broadcast() {
        onSystemStateChange?(systemState)
        var cache: [OrientationState: String] = [:]
        for subscriber in subscribers.values {
            subscriber.offer(subscriber.state(sensor: sensor, time: time, hinge: hinge)) { state in
                if let line = cache[state] { return line }
                let line = Messages.orientationEvent(state)
                cache[state] = line
                return line
            }
        }
    }
}
