import OrientCore
import OrientProtocol
import OrientServer
import Synchronization
import Testing

/// The states a control queue saved, in order.
final class SavedStates: Sendable {
    let states = Mutex<[PersistentState]>([])
    var all: [PersistentState] { states.withLock { $0 } }
}

/// Control requests are checked and saved off the event loop, one at a time, and applied once saved.
@Suite("Control queue")
struct ControlQueueTests {
    /// Blocking work that runs only when the test says: what a slow disk looks like to the loop.
    final class HeldBlockingThread {
        private(set) var held: [(work: @Sendable () throws -> Void, done: (Error?) -> Void)] = []

        var runner: ControlQueue.BlockingRunner { { [unowned self] work, done in held.append((work, done)) } }

        /// Runs the oldest held piece of work and hands its outcome back.
        func runOne() {
            let next = held.removeFirst()
            do {
                try next.work()
                next.done(nil)
            } catch {
                next.done(error)
            }
        }
    }

    private func reply(_ sink: RecordingSink) -> ServerMessage? { sink.messages.last { $0.ok != nil } }

    @Test("While a save is held, other clients are served, and the lock applies only once saved")
    func slowSaveDoesNotStall() {
        let p = Publisher()
        let saved = SavedStates()
        let thread = HeldBlockingThread()
        let queue = ControlQueue(publisher: p, save: { state in saved.states.withLock { $0.append(state) } }, runBlocking: thread.runner)
        let subscriber = RecordingSink()
        _ = p.subscribe(subscriber, settings: SubscriptionSettings(), id: nil)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        p.deviceChanged(.portrait, time: 1)

        let controller = RecordingSink()
        queue.submit(.init(change: .locked(true), id: .number(1), sink: controller) { true })
        thread.runOne()  // the peer check
        #expect(thread.held.count == 1, "the save waits on the blocking thread")
        p.deviceChanged(.landscapeLeft, time: 2)
        #expect(subscriber.events.last?.interface == "landscape-right", "events flow while the disk is slow")
        #expect(controller.lines.isEmpty && !p.locked, "not locked before the state is on disk")
        thread.runOne()  // the save
        #expect(saved.all == [PersistentState(locked: true)])
        #expect(reply(controller)?.locked == true)
        #expect(reply(controller)?.id == .number(1))
        #expect(p.locked)
    }

    @Test("Requests apply in order, each on top of the last, and the file holds the last")
    func inOrder() {
        let p = Publisher()
        let saved = SavedStates()
        let thread = HeldBlockingThread()
        let queue = ControlQueue(publisher: p, save: { state in saved.states.withLock { $0.append(state) } }, runBlocking: thread.runner)
        let sink = RecordingSink()
        queue.submit(.init(change: .locked(true), id: .number(1), sink: sink) { true })
        queue.submit(.init(change: .mask(.landscape), id: .number(2), sink: sink) { true })
        #expect(thread.held.count == 1, "the second waits for the first")
        while !thread.held.isEmpty { thread.runOne() }
        #expect(saved.all == [PersistentState(locked: true), PersistentState(locked: true, mask: .landscape)])
        #expect(sink.messages.map(\.id) == [.number(1), .number(2)])
        #expect(p.locked && p.systemMask == .landscape)
    }

    @Test("A peer that may not is refused, and nothing is saved; a failed save changes nothing")
    func deniedAndFailed() {
        struct DiskFull: Error {}
        let p = Publisher()
        let inline: ControlQueue.BlockingRunner = { work, done in
            do { try work(); done(nil) } catch { done(error) }
        }
        let sink = RecordingSink()
        let denying = ControlQueue(publisher: p, save: { _ in Issue.record("saved for a denied peer") }, runBlocking: inline)
        denying.submit(.init(change: .locked(true), id: .number(1), sink: sink) { false })
        #expect(reply(sink)?.error?.code == "permission-denied")
        let failing = ControlQueue(publisher: p, save: { _ in throw DiskFull() }, runBlocking: inline)
        failing.submit(.init(change: .locked(true), id: .number(2), sink: sink) { true })
        #expect(reply(sink)?.error?.code == "internal-error")
        #expect(!p.locked)
    }
}
