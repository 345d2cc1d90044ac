/// A value that changes only once a different one has been proposed continuously for a settle time.
struct SettlingValue<Value: Equatable & Sendable>: Sendable {
    private(set) var value: Value
    private var proposed: Value
    private var since: Double = 0

    init(_ initial: Value) {
        value = initial
        proposed = initial
    }

    /// Proposes `next` at `time`. Returns whether this commits a change of ``value``.
    mutating func propose(_ next: Value, at time: Double, settle: Double) -> Bool {
        if next != proposed {
            proposed = next
            since = time
        }
        guard proposed != value, time - since >= settle else { return false }
        value = proposed
        return true
    }

    /// Drops any pending proposal: the time spent so far does not count towards the next.
    mutating func cancel() {
        proposed = value
    }
}
