import Testing

import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

@Suite("Wakeup pipe")
struct WakeupPipeTests {
    /// Whether the pipe's read end is readable, waiting at most `milliseconds` (-1: for ever).
    private func readable(_ pipe: WakeupPipe, waiting milliseconds: Int32 = 0) -> Bool {
        var entry = pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    @Test("A signal makes the read end readable until it is drained")
    func signalAndDrain() throws {
        let pipe = try WakeupPipe()
        #expect(!readable(pipe))
        pipe.signal()
        #expect(readable(pipe))
        #expect(readable(pipe), "polling alone does not consume it")
        pipe.drain()
        #expect(!readable(pipe))
    }

    @Test("A signal from another thread wakes a poll that has no timeout")
    func wakesAnotherThread() throws {
        let pipe = try WakeupPipe()
        startThread(name: "signaller") { pipe.signal() }
        // -1 would hang a failing test for good; a minute is as good as for ever here.
        #expect(readable(pipe, waiting: 60_000))
    }

    @Test("The signaller never blocks, however many signals pile up, and one drain empties them all")
    func neverBlocks() throws {
        let pipe = try WakeupPipe()
        let flags = fcntl(pipe.readDescriptor, F_GETFL)
        #expect(flags & O_NONBLOCK != 0, "draining an empty pipe must not wait")
        #expect(fcntl(pipe.readDescriptor, F_GETFD) & FD_CLOEXEC != 0, "not inherited by a child process")
        for _ in 0..<200_000 { pipe.signal() }  // far more than a pipe's 64 KiB
        pipe.drain()
        #expect(!readable(pipe))
        pipe.signal()
        #expect(readable(pipe), "a full pipe, once drained, takes signals again")
    }
}
