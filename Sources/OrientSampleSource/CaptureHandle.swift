import Synchronization

/// A running capture: stop it, and wait until its thread (or task) has really ended.
///
/// Waiting matters: a sensor reopened at once (a client that unsubscribes and subscribes again) must not find
/// the device still held by the capture that is ending, which would leave it polling for no reason.
public final class CaptureHandle: Sendable {
    private struct State {
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let requestStop: @Sendable () -> Void

    package init(requestStop: @escaping @Sendable () -> Void) {
        self.requestStop = requestStop
    }

    /// Asks the capture to stop and returns when it has.
    public func stop() async {
        requestStop()
        await finished()
    }

    /// Returns when the capture has ended (stopped, or a replay that ran out).
    public func finished() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if done { continuation.resume() }
        }
    }

    /// Asks the capture to stop without waiting.
    public func cancel() { requestStop() }

    /// Called by the capture itself as its last act.
    package func markFinished() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
