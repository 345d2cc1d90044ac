import OrientProtocol
@testable import OrientServer
import Testing

/// Batches of `get` requests waiting for a fresh state, on a clock the test turns.
@Suite("Pending gets")
struct PendingGetsTests {
    final class Log {
        var expired = 0
    }

    private func waiter(_ sink: RecordingSink, _ id: Double) -> PendingGets.Waiter {
        .init(sink: sink, id: .number(id), settings: nil)
    }

    @Test("A batch has one time limit, from its first request, and expires then, not before")
    func timeLimit() {
        let clock = ManualClock(), log = Log()
        let gets = PendingGets(clock: clock)
        let a = RecordingSink(), b = RecordingSink()
        gets.add(waiter(a, 1), timeLimit: 1) { log.expired += 1 }
        clock.advance(by: 0.5)
        gets.add(waiter(b, 2), timeLimit: 1) { log.expired += 100 }
        #expect(!gets.isEmpty && clock.delays == [1], "one time limit for the batch, from its first")
        clock.advance(by: 0.499)
        #expect(log.expired == 0)
        clock.advance(by: 0.001)
        #expect(log.expired == 1)
        gets.answerAll { "\($0.id.map { "\($0)" } ?? "-")\n" }
        #expect(a.lines.count == 1 && b.lines.count == 1)
        #expect(gets.isEmpty)
    }

    @Test("An answered batch's time limit does nothing, to the next batch either")
    func answeredBatch() {
        let clock = ManualClock(), log = Log()
        let gets = PendingGets(clock: clock)
        gets.add(waiter(RecordingSink(), 1), timeLimit: 1) { log.expired += 1 }
        gets.answerAll { _ in "first\n" }
        clock.advance(by: 0.5)
        let late = RecordingSink()
        gets.add(waiter(late, 2), timeLimit: 1) { log.expired += 10 }
        clock.advance(by: 0.5)
        #expect(log.expired == 0, "the first batch's limit passed with the second waiting")
        clock.advance(by: 0.5)
        #expect(log.expired == 10)
        #expect(!gets.isEmpty)
        gets.answerAll { _ in "answer\n" }
        gets.answerAll { _ in "again\n" }
        #expect(late.lines == ["answer"] && gets.isEmpty, "answered once")
    }

    @Test("A client that leaves is forgotten; with the last, none waits")
    func disconnect() {
        let clock = ManualClock()
        let gets = PendingGets(clock: clock)
        let a = RecordingSink(), b = RecordingSink()
        gets.add(waiter(a, 1), timeLimit: 1) {}
        gets.add(waiter(b, 2), timeLimit: 1) {}
        gets.remove(a)
        #expect(!gets.isEmpty)
        gets.remove(b)
        #expect(gets.isEmpty)
        gets.remove(a)
        #expect(gets.isEmpty, "nothing to forget when nothing waited")
        clock.advance(by: 1)
        gets.answerAll { _ in "late\n" }
        #expect(a.lines.isEmpty && b.lines.isEmpty)
    }
}
