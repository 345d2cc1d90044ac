import OrientConfiguration
import OrientCore
import OrientProtocol
import OrientSampleSource

/// The daemon's state and its subscribers: requests and sensor events in, reply and event lines out.
///
/// Not thread-safe by design: it lives on the server's single event loop, and every call comes from there
/// (connections directly, the sensor service by hopping onto the loop). That keeps fan-out to a thousand
/// subscribers a plain loop with no locks and no task switches. What is known of every sensor is
/// ``PublishedSensors``, the orientation state and its rules ``PublishedState``; the subscribers ``SubscriberRegistry``;
/// `get` requests that wait, ``PendingGets``.
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
        /// The panel's natural orientation, which gives each state its rotation and the pose a convertible is held
        /// in for the keyboard; and where it came from, for `status`.
        public var panel: PanelDetection
        /// Whether a tablet-mode switch should exist (``TabletModeSwitchPolicy``).
        public var tabletModeSwitch: TabletModeSwitchSetting

        public init(
            configuredMask: InterfaceOrientationMask = .all, preferred: InterfaceOrientation? = nil,
            sampling: SamplingPolicy = .onDemand, mountRepair: Bool = true, freshWait: Double? = 1,
            rotateIn: RotateIn? = nil, panel: PanelDetection = .portraitUntilTold,
            tabletModeSwitch: TabletModeSwitchSetting = .auto
        ) {
            self.panel = panel
            self.tabletModeSwitch = tabletModeSwitch
            self.configuredMask = configuredMask
            self.preferred = preferred
            self.sampling = sampling
            self.mountRepair = mountRepair
            self.freshWait = freshWait
            self.rotateIn = rotateIn
        }
    }

    /// What the publisher tells and asks of the rest of the daemon. All are called on the publisher's loop.
    public struct Dependencies {
        /// Runs the time limit of a `get` that waits for a fresh orientation.
        public var clock: any PublishingClock
        /// What the socket's clients want of the sensors (subscribers, readers of each one-value kind, a `get`
        /// waiting for a fresh orientation), whenever it changes: the sensor services open and close by it.
        public var demandChanged: (SocketDemand) -> Void
        /// The system state, at start and after anything that may have changed it (the tablet-mode switch follows
        /// it).
        public var systemStateChanged: (OrientationState) -> Void
        /// The state has just become fresh (see ``PublishedState/isFresh``): the sensor, opened at start or for a
        /// client, has been read and its orientation committed. The daemon's start-up work is behind it.
        public var becameFresh: () -> Void
        /// What is known of every sensor, at start and whenever it changes: the D-Bus facade's one input.
        public var sensorsChanged: (SensorSnapshot) -> Void
        /// Each new decision on the tablet-mode switch, for the log.
        public var tabletModeSwitchDecided: (TabletModeSwitchDecision) -> Void

        public init(
            clock: any PublishingClock, demandChanged: @escaping (SocketDemand) -> Void = { _ in },
            systemStateChanged: @escaping (OrientationState) -> Void = { _ in },
            becameFresh: @escaping () -> Void = {}, sensorsChanged: @escaping (SensorSnapshot) -> Void = { _ in },
            tabletModeSwitchDecided: @escaping (TabletModeSwitchDecision) -> Void = { _ in }
        ) {
            self.clock = clock
            self.demandChanged = demandChanged
            self.systemStateChanged = systemStateChanged
            self.becameFresh = becameFresh
            self.sensorsChanged = sensorsChanged
            self.tabletModeSwitchDecided = tabletModeSwitchDecided
        }
    }

    private var state: PublishedState
    /// Every kind's sensor: plugged in, read, its last value (the orientation is `state`).
    private var known: PublishedSensors
    private var incidents = SensorIncidentLog()
    private var subscribers = SubscriberRegistry()
    /// The demand last told to `demandChanged`.
    private var demandTold = SocketDemand()
    /// The snapshot last told to `sensorsChanged`.
    private var snapshotTold: SensorSnapshot?
    /// What udev shows of the machine for the tablet-mode switch; `nil` until told (never, for a replayed trace).
    private var machine: TabletModeSwitchPolicy.Machine?
    /// Whether a tablet-mode switch should exist, and why; `nil` while that cannot be told yet.
    private var switchDecision: TabletModeSwitchDecision?
    /// The switch's state last offered to the subscribers.
    private var switchStateTold = TabletModeSwitchState.none
    private let pendingGets: PendingGets
    private let dependencies: Dependencies
    private let started: ContinuousClock.Instant = .now
    private let version: String

    /// - Parameter readingKinds: the one-value sensors the daemon serves (a sensor service runs for each).
    public init(
        settings: Settings, persistent: PersistentState, version: String, readingKinds: [SensorKind] = [],
        dependencies: Dependencies
    ) {
        self.state = PublishedState(settings: settings, persistent: persistent)
        self.known = PublishedSensors(readingKinds: readingKinds)
        self.version = version
        self.dependencies = dependencies
        self.pendingGets = PendingGets(clock: dependencies.clock)
        dependencies.systemStateChanged(state.systemState)
        tellSensors()
        decideTabletModeSwitch()
    }

    public var settings: Settings { state.settings }
    public var systemMask: InterfaceOrientationMask { state.systemMask }
    public var locked: Bool { state.persistent.locked }
    /// See ``PublishedState/holdsUpright``.
    public var holdsUpright: Bool { state.holdsUpright }
    /// The state under the system mask (`get`, and the replies to control requests).
    public var systemState: OrientationState { state.systemState }
    /// See ``PublishedState/isFresh``.
    public var isFresh: Bool { state.isFresh }

    // MARK: Clients

    /// Answers `get`: the system's view, or with `settings` the view of a client that has them; and the state of
    /// each one-value sensor in `readings`.
    ///
    /// When the state is not fresh and can become so, returns `nil`: the sensors are opened, and the reply goes to
    /// `sink` once the accelerometer commits an orientation and each sensor asked for has read, or when
    /// `settings.freshWait` has passed.
    public func get(
        _ settings: SubscriptionSettings?, readings asked: Set<SensorKind> = [], from sink: any SubscriberSink, id: RequestID?
    ) -> String? {
        if let settings, systemMask.intersection(settings.mask).isEmpty {
            let problem = "the mask \(settings.mask) leaves no orientation allowed under the system mask \(systemMask)"
            return ServerMessage.error(ProtocolError(.emptyMask, problem, id: id)).line
        }
        let settled = state.freshWait == nil && asked.allSatisfy(known.isSettled)
        guard !settled, let wait = state.settings.freshWait else { return getReply(settings, readings: asked, id: id) }
        pendingGets.add(.init(sink: sink, id: id, settings: settings, readings: asked), timeLimit: wait) { [weak self] in
            self?.answerPendingGets()
        }
        tellDemand()
        return nil
    }

    private func getReply(_ settings: SubscriptionSettings?, readings asked: Set<SensorKind>, id: RequestID?) -> String {
        let fresh = isFresh && asked.allSatisfy(known.isSettled)
        // Told as not present when nothing is known of it even now.
        let told = asked.sorted().map { known.state(of: $0) ?? ReadingState(kind: $0, present: false) }
        guard let settings else { return ServerMessage.state(id: id, state.systemState, fresh: fresh, readings: told).line }
        do {
            // Exactly what a client that subscribed now would be told first.
            let view = try state.clientView(settings)
            return ServerMessage.state(id: id, state.state(seenBy: view), fresh: fresh, readings: told).line
        } catch {
            return Self.emptyMask(error, id: id)
        }
    }

    /// Answers every waiting `get` with the state as it is.
    private func answerPendingGets() {
        pendingGets.answerAll { getReply($0.settings, readings: $0.readings, id: $0.id) }
        tellDemand()
    }

    /// Answers the waiting `get`s once they have all they wait for: a fresh orientation (or none to come) and a
    /// reading of each sensor asked for.
    private func answerPendingGetsIfSettled() {
        guard !pendingGets.isEmpty, isFresh || pendingGets.orientationSettled,
            pendingGets.readings.allSatisfy(known.isSettled)
        else { return }
        answerPendingGets()
    }

    /// Tells the demand what the socket's clients want, when that changed.
    private func tellDemand() {
        var readers: [SensorKind: Int] = [:]
        for (kind, count) in subscribers.readers { readers[kind] = count }
        for kind in pendingGets.readings { readers[kind, default: 0] += 1 }
        // A subscriber that keeps only the tablet-mode switch wants the accelerometer unless no switch should exist.
        let keepers = switchDecision?.wanted == false ? subscribers.switchKeepers : 0
        let demand = SocketDemand(
            subscribers: subscribers.count - keepers, readers: readers, freshStateWanted: !pendingGets.isEmpty)
        guard demand != demandTold else { return }
        demandTold = demand
        dependencies.demandChanged(demand)
    }

    /// Subscribes `sink`, or changes its subscription, with events of the one-value sensors in `readings`.
    /// Returns the reply line, followed by an event line for each of those sensors whose state is known.
    public func subscribe(
        _ sink: any SubscriberSink, settings: SubscriptionSettings, readings asked: Set<SensorKind> = [], id: RequestID?
    ) -> String {
        if let existing = subscribers[sink] {
            let before = existing.view.interface
            do {
                try existing.updateSettings(settings)
            } catch {
                return Self.emptyMask(error, id: id)
            }
            subscribers.setReadings(asked, of: existing)
            tellDemand()
            let current = state.state(seenBy: existing.view)
            existing.markSent(current)
            let reply = ServerMessage.state(id: id, current).line
            // UIKit's setNeedsUpdateOfSupportedInterfaceOrientations: a change it causes is also an event.
            let event = existing.view.interface != before ? ServerMessage.event(current).line : ""
            return reply + event + readingEvents(for: existing) + (existing.offer(tabletModeSwitchState, afterReply: true) ?? "")
        }
        let subscriber: Subscriber
        do {
            subscriber = Subscriber(sink: sink, settings: settings, view: try state.clientView(settings), readings: asked)
        } catch {
            return Self.emptyMask(error, id: id)
        }
        subscribers.add(subscriber)
        let current = state.state(seenBy: subscriber.view)
        subscriber.markSent(current)
        tellDemand()
        return ServerMessage.state(id: id, current).line + readingEvents(for: subscriber)
            + (subscriber.offer(tabletModeSwitchState, afterReply: true) ?? "")
    }

    /// The events that tell a subscriber what is known of the one-value sensors it asked for (the last level at
    /// once, or that none is present), to follow its reply.
    private func readingEvents(for subscriber: Subscriber) -> String {
        subscriber.readings.sorted().compactMap { kind in
            known.state(of: kind).flatMap { subscriber.offer($0, afterReply: true) }
        }.joined()
    }

    private static func emptyMask(_ error: EmptyMaskError, id: RequestID?) -> String {
        ServerMessage.error(ProtocolError(.emptyMask, error.description, id: id)).line
    }

    public func unsubscribe(_ sink: any SubscriberSink) {
        guard subscribers.remove(sink) else { return }
        tellDemand()
    }

    /// The sink's connection closed: its subscription and any `get` it waits for go.
    public func disconnected(_ sink: any SubscriberSink) {
        unsubscribe(sink)
        pendingGets.remove(sink)
        tellDemand()
    }

    /// The sink's socket drained: it gets the newest state if it missed any.
    public func writable(_ sink: any SubscriberSink) {
        subscribers[sink]?.writable { ServerMessage.event($0).line }
    }

    /// The persistent state a control request would leave: the lock, or the system mask (`nil`: back to the
    /// configured one). A mask that would leave any subscriber with no allowed orientation is refused.
    /// Nothing changes until ``apply(_:id:)``, once the state is saved.
    public func proposedState(_ change: ControlChange, id: RequestID?) -> Result<PersistentState, ProtocolError> {
        if case .mask(let mask) = change, let problem = subscribers.stranding(mask ?? state.settings.configuredMask) {
            return .failure(ProtocolError(.emptyMask, problem, id: id))
        }
        return .success(state.proposed(change))
    }

    /// Puts a saved persistent state in force. Returns the reply to the request that made it.
    public func apply(_ persistent: PersistentState, id: RequestID?) -> String {
        subscribers.apply(state.apply(persistent))
        broadcast()
        return ServerMessage.state(id: id, state.systemState).line
    }

    /// Seconds since the publisher was made (the daemon's start).
    private var uptime: Double {
        let uptime = started.duration(to: .now)
        return Double(uptime.components.seconds) + Double(uptime.components.attoseconds) * 1e-18
    }

    public func status(id: RequestID?) -> String {
        let report = StatusReport(
            version: version, uptime: (uptime * 1000).rounded() / 1000, subscribers: subscribers.count,
            sampling: state.settings.sampling.rawValue, naturalOrientation: state.settings.panel.natural.rawValue,
            naturalOrientationSource: state.settings.panel.sourceDescription, sensorState: state.sensor,
            sensor: state.sensorDescription.map { StatusReport.Sensor($0, mountRepair: state.settings.mountRepair) },
            readingSensors: known.report, incidents: incidents.report,
            tabletModeSwitch: switchDecision.map { StatusReport.TabletModeSwitch(state: tabletModeSwitchState, reason: $0.reason) })
        return ServerMessage.status(id: id, report).line
    }

    // MARK: The sensors

    /// What the sensor service of `kind` said: the one way in for every kind's news. The accelerometer's moves the
    /// orientation state; a one-value sensor's goes to the subscribers that asked for its kind. Either may answer a
    /// `get` waiting for it, and the facade learns what changed.
    public func take(_ news: SensorNews, of kind: SensorKind) {
        switch news {
        case .incident(let what): incidents.record(what, of: kind, uptime: uptime)
        case .lost(let reason): incidents.record("lost: \(reason)", of: kind, uptime: uptime)
        default: break
        }
        let told = known.take(news, of: kind)
        guard kind == .accelerometer else {
            // A one-value sensor: subscribers that asked for the kind get its new state, and a `get` waiting for
            // its reading may be answered.
            if let told { subscribers.broadcast(told) }
            tellSensors()
            return answerPendingGetsIfSettled()
        }
        switch news {
        case .present: tellSensors()
        case .accelerometerOpened(let description): sensorOpened(description)
        case .accelerometerRead(let update): accelerometerChanged(update)
        case .stopped: sensorReleased()
        case .ended: sourceEnded()
        case .baseLost: postureSensorLost(state.baseLost())
        case .hingeLost: postureSensorLost(state.hingeLost())
        case .lost: sensorLost(.unavailable)
        case .noSensor: sensorLost(.none)
        case .started, .incident, .opened, .read: break
        }
    }

    private func sensorOpened(_ description: SensorDescription) {
        subscribers.apply(state.sensorOpened(description))
        decideTabletModeSwitch()
        broadcast()
    }

    /// The sensor service closed the sensor (no clients left): the state is kept, but is no longer fresh.
    private func sensorReleased() {
        state.sensorReleased()
        // The facade learns that nothing has been read since a start: a claim now waits for the next first reading.
        tellSensors()
    }

    /// A replayed trace ran out: `get` answers at once from now on.
    private func sourceEnded() {
        state.sourceEnded()
        pendingGets.orientationSettled = true
        answerPendingGetsIfSettled()
    }

    /// What one sample changed, told at once: subscribers get one event for the device orientation and the posture
    /// together, and the D-Bus facade one snapshot for all of it, the tilt and the first reading included.
    private func accelerometerChanged(_ update: AccelerometerUpdate) {
        if let tilt = update.tilt { state.tiltChanged(tilt) }
        if update.device != nil || update.posture != nil {
            let wasFresh = isFresh
            subscribers.apply(state.sensorChanged(device: update.device, posture: update.posture, time: update.time))
            broadcast(toFacade: false)
            freshnessMayHaveChanged(wasFresh: wasFresh)
        }
        // After the change it may have committed: a claim answered on it reads both.
        if let first = update.first { state.sensorRead(first: first) }
        tellSensors()
    }

    /// A convertible's base or hinge sensor went away while the display's goes on (`update`, the state's change for
    /// it): posture, tablet mode and hinge angle are unknown, and the display alone turns the screen again, as on a
    /// tablet, until the other one (if any) reads the angle again.
    private func postureSensorLost(_ update: ViewUpdate) {
        let wasFresh = isFresh
        subscribers.apply(update)
        decideTabletModeSwitch()
        broadcast()
        // No posture to wait for any more.
        freshnessMayHaveChanged(wasFresh: wasFresh)
    }

    private func freshnessMayHaveChanged(wasFresh: Bool) {
        guard isFresh else { return }
        answerPendingGetsIfSettled()
        if !wasFresh { dependencies.becameFresh() }
    }

    /// The sensor went away (or no sensor exists): the device orientation is unknown until one is back.
    private func sensorLost(_ sensorState: SensorState) {
        subscribers.apply(state.sensorLost(sensorState))
        broadcast()
        // No sensor to wait for: say so now rather than at the time limit (once the readings asked for are in).
        pendingGets.orientationSettled = true
        answerPendingGetsIfSettled()
    }

    // MARK: Configuration

    /// Applies a reloaded configuration. A mask set at run time stays in force. A configured mask that would leave
    /// a subscriber with no allowed orientation is not applied (as `set-mask` refuses it).
    /// - Returns: why part of the configuration was not applied, or `nil`.
    @discardableResult
    public func reconfigure(_ settings: Settings) -> String? {
        var settings = settings
        let inForce = state.persistent.mask ?? settings.configuredMask
        let problem = subscribers.stranding(inForce, shown: settings.configuredMask)
            .map { $0 + "; keeping \(state.settings.configuredMask)" }
        if problem != nil { settings.configuredMask = state.settings.configuredMask }
        subscribers.apply(state.reconfigure(settings))
        decideTabletModeSwitch()
        broadcast()
        return problem
    }

    // MARK: The tablet-mode switch

    /// What udev now shows of the machine: its accelerometers and the other input devices reporting
    /// SW_TABLET_MODE.
    public func machineChanged(_ machine: TabletModeSwitchPolicy.Machine) {
        self.machine = machine
        decideTabletModeSwitch()
        tellTabletModeSwitch()
    }

    /// What the tablet-mode switch reports now: `none` unless one should exist; then `on` in tablet mode only, and
    /// `off` while tablet mode is not known (the base lost, the sensor lost or not read yet).
    public var tabletModeSwitchState: TabletModeSwitchState {
        guard switchDecision?.wanted == true else { return .none }
        return state.hinge.tabletMode == true ? .on : .off
    }

    /// Decides again from the setting and the machine, and tells a new decision. A replayed trace has no machine
    /// for udev to show: its own base or hinge readings tell the posture. A live sensor waits for udev's word, even
    /// when it opens first: its description says nothing of the machine's own switches.
    private func decideTabletModeSwitch() {
        let description = state.sensorDescription.flatMap { $0.mode == .replay ? $0 : nil }
        let replayed = description.map { opened in
            TabletModeSwitchPolicy.Machine(
                postureSource: opened.hinge.map { _ in "the hinge angles beside \(opened.displayName)" }
                    ?? opened.base.map { _ in "the base readings beside \(opened.displayName)" }, switches: [])
        }
        let setting = state.settings.tabletModeSwitch
        // yes and no need nothing of the machine.
        let forced = setting == .auto ? nil : TabletModeSwitchPolicy.Machine(postureSource: nil, switches: [])
        guard let known = machine ?? replayed ?? forced else { return }
        let decision = TabletModeSwitchPolicy.decide(setting, on: known)
        guard decision != switchDecision else { return }
        switchDecision = decision
        dependencies.tabletModeSwitchDecided(decision)
        tellDemand()
    }

    /// Offers the switch's state to the subscribers that asked for it, when it changed.
    private func tellTabletModeSwitch() {
        let now = tabletModeSwitchState
        guard now != switchStateTold else { return }
        switchStateTold = now
        subscribers.broadcast(now)
    }

    /// Tells the system state's followers, and offers every subscriber its state; and the facade, unless the caller
    /// tells it once it is done.
    private func broadcast(toFacade: Bool = true) {
        dependencies.systemStateChanged(state.systemState)
        subscribers.broadcast(state)
        tellTabletModeSwitch()
        if toFacade { tellSensors() }
    }

    /// What is known of every sensor: the D-Bus facade's view of the store.
    public var sensors: SensorSnapshot {
        var snapshot = SensorSnapshot(natural: state.settings.panel.natural, sensors: known.snapshot)
        if state.sensor == .available {
            snapshot.orientation = SensorSnapshot.Orientation(device: state.deviceForSensorProxy, tilt: state.tilt)
        }
        return snapshot
    }

    /// Tells the facade the snapshot, when it changed.
    private func tellSensors() {
        let now = sensors
        guard now != snapshotTold else { return }
        snapshotTold = now
        dependencies.sensorsChanged(now)
    }
}
