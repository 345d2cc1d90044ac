import OrientCore
import OrientProtocol

/// `get` requests waiting for a fresh orientation, and for the one-value sensors they asked for.
///
/// With on-demand sampling and nobody subscribed the sensor is closed, so the daemon's last state may be old. A
/// `get` then opens the sensor, waits for its first committed orientation (or for `wait` seconds at most), and
/// lets it close again; a `get` that asks for light or proximity waits for that sensor's first reading too.
/// Requests that come while one is waiting join its batch and are answered with it.
final class PendingGets {
    struct Waiter {
        let sink: any SubscriberSink
        let id: RequestID?
        /// The client view asked for; `nil` for the system's.
        let settings: SubscriptionSettings?
        var readings: Set<SensorKind> = []
    }

    private var waiters: [Waiter] = []
    /// Counts batches, so that the time limit of an answered batch does not cut the next one short.
    private var batch = 0
    private let clock: any PublishingClock

    init(clock: any PublishingClock) {
        self.clock = clock
    }

    /// Whether none waits; while one does, the publisher tells the demand that a fresh state is wanted.
    var isEmpty: Bool { waiters.isEmpty }

    /// The one-value sensors the batch waits for.
    var readings: Set<SensorKind> { waiters.reduce(into: []) { $0.formUnion($1.readings) } }

    /// Nothing more will come of the orientation for this batch (the sensor went away, or the replay ended): only
    /// the readings are waited for.
    var orientationSettled = false

    /// Adds a waiter. The first of a batch starts the batch's time limit: `expire` runs once `seconds` have passed,
    /// unless the batch was answered by then.
    func add(_ waiter: Waiter, timeLimit seconds: Double, expire: @escaping () -> Void) {
        waiters.append(waiter)
        guard waiters.count == 1 else { return }
        batch += 1
        orientationSettled = false
        let started = batch
        clock.schedule(after: seconds) { [weak self] in
            guard let self, batch == started, !waiters.isEmpty else { return }
            expire()
        }
    }

    /// Answers every waiter with `reply`, ending the batch.
    func answerAll(_ reply: (Waiter) -> String) {
        guard !waiters.isEmpty else { return }
        let answered = waiters
        waiters.removeAll()
        for waiter in answered { waiter.sink.send(reply(waiter)) }
    }

    /// A connection closed: its waiting requests go.
    func remove(_ sink: any SubscriberSink) {
        waiters.removeAll { $0.sink === sink }
    }
}
