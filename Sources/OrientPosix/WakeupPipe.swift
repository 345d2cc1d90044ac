#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe that wakes a thread blocked in `poll` from any other thread.
///
/// Threads that wait on C descriptors (the udev monitor, the D-Bus connection) poll this one beside theirs, so
/// they need no timeout to notice a stop or new work: no periodic wakeup while idle.
package final class WakeupPipe: Sendable {
    /// The end to poll for `POLLIN`.
    package let readDescriptor: Int32
    private let writeDescriptor: Int32

    package init() throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemCallError("pipe", errno: errno) }
        for end in ends {
            // Glibc's module does not offer pipe2, so the flags are set one by one.
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the poller. A full pipe already holds a wakeup, so a failed write loses nothing.
    package func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe after a wakeup.
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
    }
}
