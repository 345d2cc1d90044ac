import Foundation
import Testing

/// The test process runs its jobs on a wide pool (Tests/OrientTestSupport/WideGlobalExecutor.swift), so that tests
/// blocked on the daemons they spawned do not hold up the rest. If jobs stopped reaching the pool (a runtime that no
/// longer calls the hook), the suite would still pass, only three times slower: these say so instead.
@Suite("The test process's wide global executor")
struct WideGlobalExecutorTests {
    /// The kernel's name of the calling thread; NIO names its pool's threads `TP-#N`.
    private static var threadName: String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    @Test("A synchronous test runs on the pool")
    func synchronous() {
        #expect(Self.threadName.hasPrefix("TP-#"), "runs on \(Self.threadName)")
    }

    @Test("A task woken after a sleep, and after a sleep until a deadline, goes on on the pool")
    func afterSleeping() async throws {
        try await Task.sleep(nanoseconds: 1_000_000)
        #expect(Self.threadName.hasPrefix("TP-#"), "woke on \(Self.threadName)")
        try await Task.sleep(for: .milliseconds(1))
        #expect(Self.threadName.hasPrefix("TP-#"), "woke on \(Self.threadName)")
        try await Task.sleep(until: .now + .milliseconds(1), clock: .suspending)
        #expect(Self.threadName.hasPrefix("TP-#"), "woke on \(Self.threadName)")
    }
}
