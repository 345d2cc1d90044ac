import Synchronization
import Testing

import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

@Suite("Blocking worker")
struct BlockingWorkerTests {
    /// Counts the pieces of work running at once, and the most ever seen.
    final class Overlap: Sendable {
        private let counts = Mutex((running: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }

        func during<T>(_ body: () -> T) -> T {
            counts.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
            defer { counts.withLock { $0.running -= 1 } }
            return body()
        }
    }

    @Test("Work handed over from many tasks runs one piece at a time on the worker's one named thread")
    func oneThreadOneAtATime() async {
        let worker = BlockingWorker(name: "orientd-worker")
        let overlap = Overlap()
        let caller = pthread_self()
        let results = await withTaskGroup(of: (Int, String, pthread_t).self) { group in
            for index in 0..<32 {
                group.addTask {
                    await worker.run {
                        overlap.during {
                            usleep(200)  // long enough for a second thread, if there were one, to overlap
                            return (index, currentThreadName(), pthread_self())
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.map(\.0).sorted() == Array(0..<32), "each caller gets its own result")
        #expect(Set(results.map(\.1)) == ["orientd-worker"])
        #expect(results.allSatisfy { pthread_equal($0.2, results[0].2) != 0 }, "always the same thread")
        #expect(pthread_equal(results[0].2, caller) == 0)
        #expect(overlap.most == 1)
    }

    @Test("The thread ends with the worker")
    func threadEnds() async throws {
        var worker: BlockingWorker? = BlockingWorker(name: "orientd-ending")
        #expect(await worker?.run { currentThreadName() } == "orientd-ending")
        #expect(threadsNamed("orientd-ending") == 1)
        worker = nil
        // The thread sees the stop as soon as it is scheduled; the bound only keeps a failure from hanging.
        var polls = 0
        while threadsNamed("orientd-ending") > 0, polls < 10_000 {
            usleep(1000)
            polls += 1
        }
        #expect(threadsNamed("orientd-ending") == 0)
    }
}
