import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread of its own that runs blocking work handed to it, one piece at a time: a read from a pipe that has
/// nothing yet must not hold one of the threads Swift concurrency runs every task on (in orientd, NIO's event
/// loops, where a blocked thread starves whatever else was queued to it). The thread ends with the worker.
package final class BlockingWorker: Sendable {
    private final class Queue: Sendable {
        let jobs = Mutex<[@Sendable () -> Void]>([])
        /// Counts what is queued (and one more for the stop), so the thread sleeps in between.
        let signal = Semaphore()
    }

    private let queue = Queue()

    package init(name: String) {
        let queue = self.queue
        startThread(name: name) {
            while true {
                queue.signal.wait()
                let job: (@Sendable () -> Void)? = queue.jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                guard let job else { return }  // woken with nothing queued: stopping
                job()
            }
        }
    }

    /// The thread is woken with nothing queued, which it takes as the end (a job keeps the worker alive).
    deinit {
        queue.signal.post()
    }

    /// Runs `body` on the worker's thread and returns its result.
    package func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.jobs.withLock { $0.append { continuation.resume(returning: body()) } }
            queue.signal.post()
        }
    }
}
