import OrientPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A stop asked of a capture thread from any thread: a flag, and a pipe that wakes the thread at once from any
/// `poll` that watches ``descriptor`` beside its own, or from ``sleep(_:)``. A stop is final, so the pipe is never
/// emptied: it stays readable.
final class StopFlag: Sendable {
    private let flag = Mutex(false)
    private let wakeup: WakeupPipe

    init() throws(SystemCallError) {
        wakeup = try WakeupPipe()
    }

    var isSet: Bool { flag.withLock { $0 } }

    /// Readable once the stop is asked: poll it for `POLLIN`.
    var descriptor: Int32 { wakeup.readDescriptor }

    func set() {
        flag.withLock { $0 = true }
        wakeup.signal()
    }

    /// Sleeps up to `seconds`, or until the stop; returns false when the flag is set.
    func sleep(_ seconds: Double) -> Bool {
        let end = monotonicSeconds() + seconds
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !isSet {
            let left = end - monotonicSeconds()
            guard left > 0 else { break }
            _ = poll(&entry, 1, Int32((left * 1000).rounded(.up)))
        }
        return !isSet
    }
}

/// Seconds on the monotonic clock, the time base of live samples.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
