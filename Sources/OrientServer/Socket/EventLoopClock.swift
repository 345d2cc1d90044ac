import NIOCore

/// The publisher's clock in the daemon: timers of the event loop it lives on. Used only on that loop.
public struct EventLoopClock: PublishingClock {
    private let loop: any EventLoop

    public init(_ loop: any EventLoop) {
        self.loop = loop
    }

    public func schedule(after seconds: Double, _ work: @escaping () -> Void) {
        loop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(seconds * 1e9)), work)
    }
}
