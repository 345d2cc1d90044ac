#if canImport(Glibc)
import Glibc
#endif

extension UdevSession {
    /// Blocks until udev has events on `monitor` or `stop` is signalled, then hands each pending event to
    /// `handle`. Returns false when it is time to stop (`stop` signalled, or `poll` failed).
    func waitForEvents(monitor: Int32, stop: Int32, _ handle: ((action: String, id: String)) -> Void) -> Bool {
        var entries = [
            pollfd(fd: monitor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&entries, 2, -1) >= 0 || errno == EINTR else { return false }
        if entries[1].revents != 0 { return false }
        while let event = nextEvent() { handle(event) }
        return true
    }
}
