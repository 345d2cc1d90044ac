import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

extension UdevSession {
    /// What `observe` makes of the devices of `subsystems`, now and again after every udev event of those
    /// subsystems, yielded when it changes. A thread named `thread` blocks on the udev monitor until something
    /// happens: no idle wakeups. It stops when the stream's consumer goes away. A monitor that cannot be set up is
    /// tried again (``watching(_:failed:wait:)``).
    ///
    /// - Parameters:
    ///   - unavailable: the value to yield while udev cannot be watched (given the reason).
    ///   - observe: reads the devices; `events` are the (action, sysname) pairs since the last call, empty at first.
    static func changes<Value: Equatable & Sendable>(
        of subsystems: [String], thread: String, unavailable: @escaping @Sendable (any Error) -> Value,
        observe: @escaping @Sendable (UdevSession, _ events: [(action: String, id: String)]) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let stop: WakeupPipe
        do {
            stop = try WakeupPipe()
        } catch {
            continuation.yield(unavailable(error))
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in stop.signal() }
        startThread(name: thread) {
            var last: Value?
            let watched = UdevSession.watching(subsystems) { error, failures in
                guard failures == 1 else { return }
                last = unavailable(error)
                continuation.yield(last!)
            } wait: { seconds in
                var entry = pollfd(fd: stop.readDescriptor, events: Int16(POLLIN), revents: 0)
                return poll(&entry, 1, Int32(seconds * 1000)) == 0
            }
            guard let (session, monitor) = watched else {
                continuation.finish()
                return
            }
            var events: [(action: String, id: String)] = []
            while true {
                let value = observe(session, events)
                if value != last {
                    continuation.yield(value)
                    last = value
                }
                events = []
                var entries = [
                    pollfd(fd: monitor, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stop.readDescriptor, events: Int16(POLLIN), revents: 0),
                ]
                guard poll(&entries, 2, -1) >= 0 || errno == EINTR else { break }
                if entries[1].revents != 0 { break }
                while let event = session.nextEvent() { events.append(event) }
            }
            continuation.finish()
        }
        return stream
    }
}
