import OrientCore
import OrientSampleSource
import Synchronization

/// What clients want of the sensors: the one channel through which demand flows back to the services that read
/// them, from the publisher (socket subscribers, a `get` waiting, per kind of sensor) and the D-Bus facade (claims,
/// per kind of sensor). It holds no reference to any of them, so data flows one way: sensor, engine, published state, sinks;
/// and demand back through here.
public final class SensorDemand: Sendable {
    public struct Level: Sendable, Equatable {
        /// Socket clients subscribed.
        public var subscribers = 0
        /// D-Bus clients that claim each kind of sensor; a kind nobody claims is absent.
        public var claims: [SensorKind: Int] = [:]
        /// Socket clients that want a one-value kind (light, proximity): subscribers that asked for its readings,
        /// and a `get` waiting for one. A kind nobody wants is absent.
        public var readers: [SensorKind: Int] = [:]
        /// A `get` waits for a fresh orientation (see ``Publisher/get(_:from:id:)``).
        public var freshStateWanted = false
        /// How many times the machine has resumed from sleep: a service whose sensor is open re-opens it when this
        /// grows (a sensor may come back from a suspend silent, or reading a phantom 0, until it is set up again).
        public var resumes = 0

        public init(
            subscribers: Int = 0, claims: [SensorKind: Int] = [:], readers: [SensorKind: Int] = [:],
            freshStateWanted: Bool = false
        ) {
            self.subscribers = subscribers
            self.claims = claims.filter { $0.value > 0 }
            self.readers = readers.filter { $0.value > 0 }
            self.freshStateWanted = freshStateWanted
        }

        /// How many D-Bus clients claim `kind`.
        public func claims(of kind: SensorKind) -> Int { claims[kind] ?? 0 }

        /// How many socket clients want readings of `kind`.
        public func readers(of kind: SensorKind) -> Int { readers[kind] ?? 0 }
    }

    private struct State {
        var level = Level()
        var readers: [AsyncStream<Level>.Continuation] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// The level now, then each level as it changes, newest first when the reader lags. Each call makes a stream
    /// of its own, one for each service that reads a kind of sensor.
    public func levels() -> AsyncStream<Level> {
        // Only the newest level matters to whoever reads it.
        let (stream, continuation) = AsyncStream.makeStream(of: Level.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            state.readers.append(continuation)
            continuation.yield(state.level)
        }
        return stream
    }

    /// What the socket's clients want, as the publisher counts them, in one change. Safe from any thread, as are
    /// the two below.
    public func setSocketDemand(_ demand: SocketDemand) {
        change {
            $0.subscribers = demand.subscribers
            $0.readers = demand.readers.filter { $0.value > 0 }
            $0.freshStateWanted = demand.freshStateWanted
        }
    }
    public func setClaims(_ count: Int, of kind: SensorKind) {
        change { $0.claims[kind] = count > 0 ? count : nil }
    }
    /// The machine resumed from sleep (logind's PrepareForSleep(false)).
    public func resumed() { change { $0.resumes += 1 } }

    private func change(_ body: (inout Level) -> Void) {
        // Yielded under the lock, so that two changes from two threads arrive in the order they were made. A reader
        // whose stream has ended is dropped here, when a yield says so, and not by an `onTermination` that takes this
        // lock: that runs inside the runtime's cancellation of the reading task, under the task's own lock, which a
        // yield made here needs to resume that task. The two deadlocked: a daemon that did not stop
        // (SensorDemandLoadTests).
        state.withLock { state in
            let before = state.level
            body(&state.level)
            guard state.level != before else { return }
            let level = state.level
            state.readers.removeAll { reader in
                if case .terminated = reader.yield(level) { return true }
                return false
            }
        }
    }
}

/// What the socket's clients want of the sensors, as the publisher counts them: one value, told whenever it changes.
public struct SocketDemand: Sendable, Equatable {
    /// Subscribers, each of which wants the orientation (the accelerometer open).
    public var subscribers: Int
    /// Clients that want each one-value kind: subscribers that asked for its readings, and a `get` waiting for one.
    public var readers: [SensorKind: Int]
    /// A `get` waits for a fresh orientation (see ``Publisher/get(_:readings:from:id:)``).
    public var freshStateWanted: Bool

    public init(subscribers: Int = 0, readers: [SensorKind: Int] = [:], freshStateWanted: Bool = false) {
        self.subscribers = subscribers
        self.readers = readers
        self.freshStateWanted = freshStateWanted
    }
}
