import Testing

import OrientPosix

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
    func renameCurrent() async {
        let before = currentThreadName()
        let renamed = await withCheckedContinuation { continuation in
            startThread(name: "first") {
                nameCurrentThread("second")
                continuation.resume(returning: currentThreadName())
            }
        }
        #expect(renamed == "second")
        #expect(currentThreadName() == before)
    }
}
