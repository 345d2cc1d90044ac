import OrientProtocol

/// `get` requests waiting for a fresh orientation.
///
/// With on-demand sampling and nobody subscribed the sensor is closed, so the daemon's last state may be old. A
/// `get` then opens the sensor, waits for its first committed orientation (or for `wait` seconds at most), and
/// lets it close again. Requests that come while one is waiting join its batch and are answered with it.
struct PendingGets {
    struct Waiter {
        let sink: any SubscriberSink
        let id: RequestID?
        /// The client view asked for; `nil` for the system's.
        let settings: SubscriptionSettings?
    }

    private(set) var waiters: [Waiter] = []
    /// Counts batches, so that the time limit of an answered batch does not cut the next one short.
    private(set) var batch = 0

    var isEmpty: Bool { waiters.isEmpty }

    /// Adds a waiter. Returns the new batch's number when this one starts a batch (start its time limit then).
    mutating func add(_ waiter: Waiter) -> Int? {
        waiters.append(waiter)
        guard waiters.count == 1 else { return nil }
        batch += 1
        return batch
    }

    /// A connection closed: its waiting requests go.
    mutating func remove(_ sink: any SubscriberSink) {
        waiters.removeAll { $0.sink === sink }
    }

    /// Takes every waiter, ending the batch.
    mutating func takeAll() -> [Waiter] {
        defer { waiters.removeAll() }
        return waiters
    }
}
