import OrientCore
import OrientProtocol

/// One subscribed connection: its own mask, preferred orientation and autorotation, the one-value sensors it asked
/// for, and what it has been sent.
final class Subscriber {
    unowned let sink: any SubscriberSink
    private(set) var settings: SubscriptionSettings
    private(set) var view: InterfaceOrientationTracker
    /// The one-value sensors whose events it gets besides the orientation's.
    private(set) var readings: Set<SensorKind>
    /// The last state of each of them written to the client, and the newest it is owed while its socket is full.
    private var readingsSent: [SensorKind: ReadingState] = [:]
    private var readingsPending: [SensorKind: ReadingState] = [:]
    /// The last state written to the client (in a reply or an event).
    private var lastSent: OrientationState?
    /// The tablet-mode switch's state last written to the client, and the newest it is owed while its socket is
    /// full; both `nil` unless it asked for it.
    private var switchSent: TabletModeSwitchState?
    private var switchPending: TabletModeSwitchState?
    /// A newer state is waiting for the socket to drain. Only the newest is ever sent: a client that does not
    /// read costs one flag, not a growing queue.
    private var pending: OrientationState?

    init(sink: any SubscriberSink, settings: SubscriptionSettings, view: InterfaceOrientationTracker, readings: Set<SensorKind>) {
        self.sink = sink
        self.settings = settings
        self.view = view
        self.readings = readings
    }

    /// A later `subscribe` asks for other readings: those it no longer asks for are forgotten, so that asking again
    /// sends the state anew.
    func updateReadings(_ readings: Set<SensorKind>) {
        self.readings = readings
        readingsSent = readingsSent.filter { readings.contains($0.key) }
        readingsPending = readingsPending.filter { readings.contains($0.key) }
    }

    func updateSettings(_ settings: SubscriptionSettings) throws(EmptyMaskError) {
        try view.setClient(mask: settings.mask, preferred: settings.preferred, autorotates: settings.autorotate)
        self.settings = settings
        // Asking again sends the state anew; no longer asking forgets it.
        switchSent = nil
        switchPending = nil
    }

    /// Sends the tablet-mode switch's state if the client asked for it and it is news, now or once the socket
    /// drains. With `afterReply` the event is not sent but returned, for the caller to write after its reply.
    @discardableResult
    func offer(_ state: TabletModeSwitchState, afterReply: Bool = false) -> String? {
        guard settings.tabletModeSwitch, switchSent != state else {
            switchPending = nil
            return nil
        }
        guard sink.isWritable || afterReply else {
            switchPending = state
            return nil
        }
        let line = ServerMessage.tabletModeSwitch(state).line
        if !afterReply { sink.send(line) }
        switchSent = state
        switchPending = nil
        return line
    }

    /// Whether the client wants nothing but the tablet-mode switch's state: it then keeps the accelerometer open
    /// only while a switch should exist.
    var wantsOnlyTheSwitch: Bool { settings.tabletModeSwitch && settings.changes == .none && readings.isEmpty }

    func apply(_ update: ViewUpdate) { view.apply(update) }

    /// Records that the client was told `state` in a reply.
    func markSent(_ state: OrientationState) {
        lastSent = state
        pending = nil
    }

    /// Sends `state` as an event if it is news to this client, now or once the socket drains.
    /// - Parameter encoded: the event line for a state, shared by every subscriber that sees the same state.
    func offer(_ state: OrientationState, encoded: (OrientationState) -> String) {
        guard isNews(state) else {
            pending = nil
            return
        }
        guard sink.isWritable else {
            pending = state
            return
        }
        sink.send(encoded(state))
        lastSent = state
        pending = nil
    }

    /// Sends a one-value sensor's state as an event if the client asked for that kind and it is news, now or once
    /// the socket drains. With `afterReply` the event is not sent but returned, for the caller to write after the
    /// reply it is writing.
    @discardableResult
    func offer(
        _ reading: ReadingState, afterReply: Bool = false, encoded: (ReadingState) -> String = { ServerMessage.reading($0).line }
    ) -> String? {
        guard readings.contains(reading.kind), readingsSent[reading.kind] != reading else {
            readingsPending[reading.kind] = nil
            return nil
        }
        guard sink.isWritable || afterReply else {
            readingsPending[reading.kind] = reading
            return nil
        }
        let line = encoded(reading)
        if !afterReply { sink.send(line) }
        readingsSent[reading.kind] = reading
        readingsPending[reading.kind] = nil
        return line
    }

    /// The socket drained: send the newest states if some are waiting.
    func writable(encoded: (OrientationState) -> String) {
        if let pending { offer(pending, encoded: encoded) }
        for reading in readingsPending.values.sorted(by: { $0.kind < $1.kind }) { offer(reading) }
        if let switchPending { offer(switchPending) }
    }

    private func isNews(_ state: OrientationState) -> Bool {
        guard let lastSent else { return true }
        switch settings.changes {
        case .all: return state != lastSent
        case .interface: return state.interface != lastSent.interface
        case .none: return false
        }
    }
}
