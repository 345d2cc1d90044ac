import OrientCore
import OrientProtocol

/// One subscribed connection: its own mask, preferred orientation and autorotation, and what it has been sent.
final class Subscriber {
    unowned let sink: any SubscriberSink
    private(set) var settings: SubscriptionSettings
    private(set) var view: InterfaceOrientationTracker
    /// The last state written to the client (in a reply or an event).
    private var lastSent: OrientationState?
    /// A newer state is waiting for the socket to drain. Only the newest is ever sent: a client that does not
    /// read costs one flag, not a growing queue.
    private var pending: OrientationState?

    init(sink: any SubscriberSink, settings: SubscriptionSettings, view: InterfaceOrientationTracker) {
        self.sink = sink
        self.settings = settings
        self.view = view
    }

    func updateSettings(_ settings: SubscriptionSettings) throws(EmptyMaskError) {
        try view.setClient(mask: settings.mask, preferred: settings.preferred, autorotates: settings.autorotate)
        self.settings = settings
    }

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

    /// The socket drained: send the newest state if one is waiting.
    func writable(encoded: (OrientationState) -> String) {
        guard let pending else { return }
        offer(pending, encoded: encoded)
    }

    private func isNews(_ state: OrientationState) -> Bool {
        guard let lastSent else { return true }
        switch settings.changes {
        case .all: return state != lastSent
        case .interface: return state.interface != lastSent.interface
        }
    }
}
