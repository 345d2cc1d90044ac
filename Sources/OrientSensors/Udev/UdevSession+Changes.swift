import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

extension UdevSession {
    /// What `observe` makes of the devices of `subsystems`, now and again after every udev event of those
    /// subsystems, yielded when it changes. A thread named `thread` blocks on the udev monitor until something
    /// happens: no idle wakeups. It stops when the stream's consumer goes away.
    ///
    /// - Parameters:
    ///   - unavailable: the one value to yield when udev cannot be watched (given the reason).
    ///   - observe: reads the devices; `events` are the (action, sysname) pairs since the last call, empty at first.
    static func changes<Value: Equatable & Sendable>(
        of subsystems: [String], thread: String, unavailable: (any Error) -> Value,
        observe: @escaping @Sendable (UdevSession, _ events: [(action: String, id: String)]) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let stop: WakeupPipe
        let udev: UdevSession
        let monitor: Int32
        do {
            stop = try WakeupPipe()
            (udev, monitor) = try UdevSession.watching(subsystems)
        } catch {
            continuation.yield(unavailable(error))
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in stop.signal() }
        nonisolated(unsafe) let session = udev
        startThread(name: thread) {
            var last: Value?
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
