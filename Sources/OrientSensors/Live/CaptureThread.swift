import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A flag set from any thread to ask a capture thread to stop.
final class StopFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }

    /// Sleeps up to `seconds`, in steps of 50 ms so that a stop is seen soon; returns false when the flag is set.
    func sleep(_ seconds: Double) -> Bool {
        let end = monotonicSeconds() + seconds
        while !isSet, monotonicSeconds() < end { usleep(50_000) }
        return !isSet
    }
}

/// Seconds on the monotonic clock, the time base of live samples.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
