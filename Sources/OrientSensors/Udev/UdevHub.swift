import OrientPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One udev event as the hub hands it on: `add`, `remove` or `change` of the device `id` (its sysname) in
/// `subsystem`. After a monitor that could not be set up comes up, every subscriber gets one `watching` event with an
/// empty id: something may have changed unseen.
struct UdevEvent: Sendable, Equatable {
    var action: String
    var id: String
    var subsystem: String

    static let watching = UdevEvent(action: "watching", id: "", subsystem: "")
}

/// The process's one view of udev (issue 37), and its ``DeviceDirectory``: one libudev session, one monitor on every
/// subsystem a sensor or the panel lives in, and one thread that owns both. Presence streams, the panel watch and every
/// capture are fed from it:
/// - a capture asks it for devices (``query(_:)``, run on the hub's thread) and is told of events through a
///   ``UdevSubscription`` it polls beside its own descriptors;
/// - a presence stream's `observe` runs on the hub's thread itself (``changes(of:unavailable:observe:)``).
///
/// The session updates what its enumerations show (a device announced as removed is left out until it is added
/// again) before any consumer hears of the event, so a capture handling a removal never finds the device again.
/// The thread sleeps in one `poll` on the monitor and a wakeup pipe: no idle wakeups.
public final class UdevHub: Sendable {
    /// Every subsystem a sensor or the panel lives in: accelerometers (IIO, input), the other sensors' drivers (IIO,
    /// input, a platform device's hwmon light), the display connectors (drm). One fixed filter, set before the
    /// monitor starts: `UdevHubTests` checks that every driver's subsystems are here.
    static let subsystems = ["iio", "input", "platform", "drm"]


    /// Work for the hub's thread, and the captures' subscriptions (which the thread reads at each event).
    private struct Handover {
        var jobs: [@Sendable (HubThread) -> Void] = []
        var subscriptions: [ObjectIdentifier: UdevSubscription] = [:]
    }

    private let handover = Mutex(Handover())
    private let wakeup: WakeupPipe?

    /// Starts the hub's thread, named `threadName`, which lives as long as the process. A process makes one, where it
    /// is wired (the daemon's `run`, each offline tool), and hands it to every part that looks at devices.
    public init(threadName: String = "orientd-udev") {
        let name = threadName
        wakeup = try? WakeupPipe()
        guard let wakeup else { return }
        startThread(name: name) { [self] in HubThread(hub: self, wakeup: wakeup).run() }
    }

    /// The jobs queued since the last call, for the hub's thread.
    fileprivate func takeJobs() -> [@Sendable (HubThread) -> Void] {
        handover.withLock { state in
            defer { state.jobs = [] }
            return state.jobs
        }
    }

    fileprivate var subscriptions: [UdevSubscription] { handover.withLock { Array($0.subscriptions.values) } }

    /// Runs `body` with the session on the hub's thread and returns its result; nil when udev cannot be used at all.
    /// Blocks the caller (a capture's thread) for one enumeration. Never call it from an `observe` closure: those are
    /// handed the session.
    func query<Value: Sendable>(_ body: @escaping @Sendable (UdevSession) -> Value) -> Value? {
        let done = Completion<Value>()
        guard enqueue({ thread in done.finish(thread.session.map(body)) }) else { return nil }
        return done.wait()
    }

    /// Starts telling the caller of the events of `subsystems`, from now on; nil when no pipe can be made.
    func subscribe(_ subsystems: [String]) -> UdevSubscription? {
        guard let subscription = try? UdevSubscription(subsystems: Set(subsystems)) else { return nil }
        handover.withLock { $0.subscriptions[ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    func unsubscribe(_ subscription: UdevSubscription) {
        _ = handover.withLock { $0.subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) }
    }

    /// What `observe` makes of the devices of `subsystems`, now and again after every udev event of those subsystems,
    /// yielded when it changes; `unavailable`'s value while udev cannot be watched (nil: the last value stands).
    /// `observe` runs on the hub's thread. It stops when the stream's consumer goes away.
    func changes<Value: Equatable & Sendable>(
        of subsystems: [String], unavailable: (@Sendable (any Error) -> Value)?,
        observe: @escaping @Sendable (UdevSession, _ events: [UdevEvent]) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        // Called on the hub's thread only.
        let yield = continuation.yieldingChanges()
        let id = ObserverID()
        let observer = HubThread.Observer(
            subsystems: Set(subsystems), unavailable: { error in unavailable.map { yield($0(error)) } },
            observe: { session, events in yield(observe(session, events)) })
        guard enqueue({ $0.add(observer, id: id) }) else {
            if let unavailable { continuation.yield(unavailable(SensorError("pipe", errno: EMFILE))) }
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in _ = self?.enqueue { $0.remove(id) } }
        return stream
    }

    /// Hands `job` to the hub's thread; false when the hub has no thread.
    private func enqueue(_ job: @escaping @Sendable (HubThread) -> Void) -> Bool {
        guard let wakeup else { return false }
        handover.withLock { $0.jobs.append(job) }
        wakeup.signal()
        return true
    }
}

/// The hub's thread: the session, its monitor and the presence observers, touched on that thread only.
private final class HubThread {
    struct Observer {
        var subsystems: Set<String>
        var unavailable: @Sendable (any Error) -> Void
        var observe: @Sendable (UdevSession, [UdevEvent]) -> Void
    }

    /// nil when libudev cannot be set up at all (out of memory).
    let session = try? UdevSession()
    private let hub: UdevHub
    private let wakeup: WakeupPipe
    private var observers: [ObjectIdentifier: Observer] = [:]
    private var monitor: Int32?
    /// Why the monitor is not running, while it is not.
    private var monitorError: (any Error)?
    private var failures = 0
    private var retryAt = 0.0

    init(hub: UdevHub, wakeup: WakeupPipe) {
        self.hub = hub
        self.wakeup = wakeup
    }

    func add(_ observer: Observer, id: ObserverID) {
        guard let session else {
            observer.unavailable(SensorError("udev_new", errno: ENOMEM))
            return
        }
        observers[ObjectIdentifier(id)] = observer
        observer.observe(session, [])
        if let monitorError { observer.unavailable(monitorError) }
    }

    func remove(_ id: ObserverID) {
        observers[ObjectIdentifier(id)] = nil
    }

    func run() {
        while true {
            startMonitorIfDue()
            var entries = [
                pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: monitor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let retrying = monitor == nil && session != nil
            let timeout = retrying ? Int32((max(0, retryAt - monotonicSeconds()) * 1000).rounded(.up)) : -1
            guard poll(&entries, 2, timeout) >= 0 || errno == EINTR else { continue }
            if entries[0].revents != 0 {
                wakeup.drain()
                for job in hub.takeJobs() { job(self) }
            }
            if entries[1].revents != 0, let session {
                var events: [UdevEvent] = []
                while let event = session.nextEvent() { events.append(event) }
                dispatch(events, session: session)
            }
        }
    }

    /// Sets the monitor up, or tries again after 0.1 s, doubling up to 5 s: a netlink error (umockdev has given EINVAL
    /// on a busy machine) must not leave the sensors unwatched until the daemon restarts.
    private func startMonitorIfDue() {
        guard monitor == nil, let session, monotonicSeconds() >= retryAt else { return }
        do {
            monitor = try session.watch(UdevHub.subsystems)
            monitorError = nil
            // Whatever happened while it was down went unheard: every consumer looks again.
            if failures > 0 { dispatch([.watching], session: session) }
        } catch {
            failures += 1
            retryAt = monotonicSeconds() + min(0.1 * Double(1 << min(failures - 1, 6)), 5)
            guard failures == 1 else { return }
            monitorError = error
            for observer in observers.values { observer.unavailable(error) }
        }
    }

    /// Hands each consumer the events of its subsystems (a `watching` event to all): the session has already applied
    /// them to its enumerations.
    private func dispatch(_ events: [UdevEvent], session: UdevSession) {
        guard !events.isEmpty else { return }
        func wanted(by subsystems: Set<String>) -> [UdevEvent] {
            events.filter { $0 == .watching || subsystems.contains($0.subsystem) }
        }
        for subscription in hub.subscriptions {
            let mine = wanted(by: subscription.subsystems)
            if !mine.isEmpty { subscription.post(mine) }
        }
        for observer in observers.values {
            let mine = wanted(by: observer.subsystems)
            if !mine.isEmpty { observer.observe(session, mine) }
        }
    }
}

/// A capture's line to the hub: the events of its subsystems, queued, and a descriptor that is readable while some
/// wait, to poll beside its own.
final class UdevSubscription: Sendable {
    let subsystems: Set<String>
    private let pending = Mutex<[UdevEvent]>([])
    private let wakeup: WakeupPipe

    /// Made by a ``DeviceDirectory``'s `subscribe`.
    init(subsystems: Set<String>) throws(SystemCallError) {
        self.subsystems = subsystems
        wakeup = try WakeupPipe()
    }

    /// Readable (`POLLIN`) while events wait.
    var descriptor: Int32 { wakeup.readDescriptor }

    /// The events since the last call, oldest first.
    func take() -> [UdevEvent] {
        wakeup.drain()
        return pending.withLock { events in
            defer { events = [] }
            return events
        }
    }

    /// Queues `events` for the subscriber: from the hub's thread, or a test's directory.
    func post(_ events: [UdevEvent]) {
        pending.withLock { $0 += events }
        wakeup.signal()
    }
}

/// Names an observer of ``UdevHub/changes(of:unavailable:observe:)`` for its removal.
private final class ObserverID: Sendable {}

/// One result handed from the hub's thread to a caller blocked on it.
private final class Completion<Value: Sendable>: Sendable {
    private let value = Mutex<Value??>(nil)
    private let signal = Semaphore()

    func finish(_ result: Value?) {
        value.withLock { $0 = .some(result) }
        signal.post()
    }

    func wait() -> Value? {
        signal.wait()
        return value.withLock { $0 ?? nil }
    }
}
