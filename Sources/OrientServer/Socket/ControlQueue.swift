import OrientProtocol

/// Carries out control requests one at a time, keeping their slow parts off the event loop.
///
/// Checking the peer reads /etc/group and /etc/passwd, and saving the state fsyncs a file and its directory:
/// on a busy or failing disk either can take seconds, and the loop serves every client. So each request is
/// checked on a blocking thread, proposed on the loop, saved on the blocking thread and applied on the loop.
/// One at a time, so that each applies on top of the one before, and the state file always holds the last.
/// Used only on the server's event loop.
public final class ControlQueue {
    public struct Job {
        public var change: ControlChange
        public var id: RequestID?
        /// Where the reply goes.
        public var sink: any SubscriberSink
        /// Whether the peer may do this; runs on the blocking thread.
        public var authorize: @Sendable () -> Bool

        public init(change: ControlChange, id: RequestID?, sink: any SubscriberSink, authorize: @escaping @Sendable () -> Bool) {
            self.change = change
            self.id = id
            self.sink = sink
            self.authorize = authorize
        }
    }

    /// Runs `work` away from the loop, then calls `done` on the loop with the error it threw, if any.
    public typealias BlockingRunner = (_ work: @escaping @Sendable () throws -> Void, _ done: @escaping (Error?) -> Void) -> Void

    private struct Denied: Error {}

    private let publisher: Publisher
    private let save: @Sendable (PersistentState) throws -> Void
    private let runBlocking: BlockingRunner
    private var waiting: [Job] = []
    private var busy = false

    public init(publisher: Publisher, save: @escaping @Sendable (PersistentState) throws -> Void, runBlocking: @escaping BlockingRunner) {
        self.publisher = publisher
        self.save = save
        self.runBlocking = runBlocking
    }

    public func submit(_ job: Job) {
        waiting.append(job)
        startNext()
    }

    private func startNext() {
        guard !busy, !waiting.isEmpty else { return }
        busy = true
        let job = waiting.removeFirst()
        let authorize = job.authorize
        runBlocking({ guard authorize() else { throw Denied() } }) { [self] error in
            guard error == nil else {
                return finish(job, ServerMessage.error(ProtocolError(
                    .permissionDenied, "only root or members of the control group may lock, unlock or set the mask",
                    id: job.id)).line)
            }
            let next: PersistentState
            switch publisher.proposedState(job.change, id: job.id) {
            case .failure(let refusal): return finish(job, ServerMessage.error(refusal).line)
            case .success(let state): next = state
            }
            let save = self.save
            runBlocking({ try save(next) }) { [self] error in
                if let error {
                    let failure = ProtocolError(.internalError, "cannot save the state: \(error)", id: job.id)
                    finish(job, ServerMessage.error(failure).line)
                } else {
                    finish(job, publisher.apply(next, id: job.id))
                }
            }
        }
    }

    private func finish(_ job: Job, _ reply: String) {
        job.sink.send(reply)
        busy = false
        startNext()
    }
}
