import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A flag set from any thread to ask a capture thread to stop.
final class StopFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}

/// Runs `body` on a new detached thread. Blocking C calls (sysfs reads, poll) belong there rather than on
/// Swift's cooperative thread pool.
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    if result == 0 {
        pthread_detach(thread)
    } else {
        // No thread: run nothing, but do not leak the box.
        Unmanaged<Box>.fromOpaque(box).release()
    }
}

/// Seconds on the monotonic clock, the time base of live samples.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
