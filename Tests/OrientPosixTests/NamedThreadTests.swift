import Testing

import OrientPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

@Suite("Named threads")
struct NamedThreadTests {
    @Test("startThread runs the body on a thread of its own, named as asked, cut to the kernel's 15 bytes")
    func startThreadNames() async {
        let caller = pthread_self()
        let (name, isOtherThread) = await withCheckedContinuation { continuation in
            startThread(name: "orientd-named-thread") {
                continuation.resume(returning: (currentThreadName(), pthread_equal(pthread_self(), caller) == 0))
            }
        }
        #expect(name == "orientd-named-t")
        #expect(isOtherThread)
    }

    @Test("nameCurrentThread renames the calling thread only")
    func renameCurrent() {
        // Synchronous, so that the test stays on one thread: after an await it could go on on another.
        let before = currentThreadName()
        let renamed = Mutex<String?>(nil)
        let done = Semaphore()
        startThread(name: "first") {
            nameCurrentThread("second")
            renamed.withLock { $0 = currentThreadName() }
            done.post()
        }
        done.wait()
        #expect(renamed.withLock { $0 } == "second")
        #expect(currentThreadName() == before)
    }
}

@Suite("Thread states")
struct ThreadStatesTests {
    @Test("describeThreads names each thread with its state: one asleep in poll, one busy")
    func sleepingAndBusy() async throws {
        let pipe = try WakeupPipe()
        let spinning = Mutex(true)
        startThread(name: "orientd-sleeper") {
            var entry = pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 10_000)
        }
        startThread(name: "orientd-spinner") {
            while spinning.withLock({ $0 }) {}
        }
        defer {
            pipe.signal()
            spinning.withLock { $0 = false }
        }
        var lines: [String] = []
        for _ in 0..<100 {
            lines = describeThreads()
            if lines.contains(where: { $0.hasPrefix("orientd-sleeper S") && $0.contains("poll") }),
                lines.contains(where: { $0.hasPrefix("orientd-spinner R") })
            {
                break
            }
            usleep(20_000)
        }
        #expect(lines.contains { $0.hasPrefix("orientd-sleeper S") && $0.contains("poll") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("orientd-spinner R") }, "\(lines)")
    }
}
