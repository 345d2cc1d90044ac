import OrientPosix
import OrientSensors
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP, taken by one thread blocked in `sigwait`.
///
/// libdispatch's signal sources (what swift-service-lifecycle uses) start its worker pool, whose monitor then
/// wakes the process every second for good; a thread in `sigwait` wakes only when a signal comes. The signals
/// are blocked in every thread (the mask is set before any thread starts, and threads inherit it), so only that
/// thread receives them. Until the daemon asks for them, SIGTERM and SIGINT end the process as by default
/// (the offline commands rely on that) and SIGHUP is ignored.
enum ProcessSignals {
    static let handled = [SIGTERM, SIGINT, SIGHUP]

    private static let subscriber = Mutex<AsyncStream<Int32>.Continuation?>(nil)

    /// Blocks the signals and starts the waiting thread. Call first in main, before any other thread exists.
    static func takeOver() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        startThread(name: "orientd-signals") { [set] in
            var set = set
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                let delivered = subscriber.withLock { $0?.yield(received) != nil }
                if !delivered, received != SIGHUP { exit(128 + received) }
            }
        }
    }

    /// The signals from now on, for the daemon; only one subscriber at a time.
    static func stream() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        subscriber.withLock { $0 = continuation }
        return stream
    }
}
