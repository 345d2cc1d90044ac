import OrientServer

/// A publisher's clock that moves only when the test says: work scheduled on it runs in `advance(by:)`, in the
/// order of its deadlines.
final class ManualClock: PublishingClock {
    private(set) var now = 0.0
    /// Every delay asked for, in order.
    private(set) var delays: [Double] = []
    private var timers: [(deadline: Double, work: () -> Void)] = []

    func schedule(after seconds: Double, _ work: @escaping () -> Void) {
        delays.append(seconds)
        timers.append((now + seconds, work))
    }

    /// Moves the clock on, running every piece of work that falls due by then.
    func advance(by seconds: Double) {
        now += seconds
        while let next = timers.indices.filter({ timers[$0].deadline <= now })
            .min(by: { timers[$0].deadline < timers[$1].deadline })
        {
            timers.remove(at: next).work()
        }
    }
}

extension Publisher {
    /// A publisher whose `get` time limits run on `clock`, and which tells `freshStateWanted` each change of
    /// whether a `get` waits for a fresh orientation.
    convenience init(
        settings: Settings = .init(), persistent: PersistentState = PersistentState(),
        clock: ManualClock = ManualClock(), freshStateWanted: @escaping (Bool) -> Void = { _ in }
    ) {
        var wanted = false
        self.init(
            settings: settings, persistent: persistent, version: "test",
            dependencies: .init(clock: clock) { demand in
                guard demand.freshStateWanted != wanted else { return }
                wanted = demand.freshStateWanted
                freshStateWanted(wanted)
            })
    }
}
