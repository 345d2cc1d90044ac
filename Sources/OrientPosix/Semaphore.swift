#if canImport(Glibc)
import Glibc
#endif

/// A POSIX counting semaphore: a thread waits in `sem_wait` until another posts, with no timeout and no spinning.
package final class Semaphore: Sendable {
    nonisolated(unsafe) private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    package init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Adds one, waking a waiter.
    package func post() { sem_post(semaphore) }

    /// Waits until the count is above 0, then takes one; a signal does not end the wait.
    package func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}
