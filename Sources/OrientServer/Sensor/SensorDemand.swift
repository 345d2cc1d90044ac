import Synchronization

/// What clients want of the sensor: the one channel through which demand flows back to the sensor service, from
/// the publisher (socket subscribers, a `get` waiting) and the D-Bus facade (claims). It holds no reference to
/// any of them, so data flows one way: sensor, engine, published state, sinks; and demand back through here.
public final class SensorDemand: Sendable {
    public struct Level: Sendable, Equatable {
        /// Socket clients subscribed.
        public var subscribers = 0
        /// D-Bus clients that claim the accelerometer.
        public var claims = 0
        /// A `get` waits for a fresh orientation (see ``Publisher/get(_:from:id:)``).
        public var freshStateWanted = false

        public init(subscribers: Int = 0, claims: Int = 0, freshStateWanted: Bool = false) {
            self.subscribers = subscribers
            self.claims = claims
            self.freshStateWanted = freshStateWanted
        }
    }

    private let level = Mutex(Level())
    private let stream: AsyncStream<Level>
    private let continuation: AsyncStream<Level>.Continuation

    public init() {
        // Only the newest level matters to whoever reads it.
        (stream, continuation) = AsyncStream.makeStream(of: Level.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Each level as it changes, newest first when the reader lags; for one reader, the sensor service.
    public var levels: AsyncStream<Level> { stream }

    /// Safe from any thread, as are the two below.
    public func setSubscribers(_ count: Int) { change { $0.subscribers = count } }
    public func setClaims(_ count: Int) { change { $0.claims = count } }
    public func setFreshStateWanted(_ wanted: Bool) { change { $0.freshStateWanted = wanted } }

    private func change(_ body: (inout Level) -> Void) {
        // Yielded under the lock, so that two changes from two threads arrive in the order they were made.
        level.withLock { level in
            let before = level
            body(&level)
            if level != before { continuation.yield(level) }
        }
    }
}
