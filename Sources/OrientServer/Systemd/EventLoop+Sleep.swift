import NIOCore

extension EventLoop {
    /// Sleeps on this loop's timer. Task.sleep would go through the runtime's delayed global enqueue, which is
    /// libdispatch's, and starting libdispatch's pool wakes the process every second for good (main.swift).
    /// Cancelled, it throws `CancellationError` as Task.sleep does (not NIO's `EventLoopError.cancelled`), so that
    /// callers written for Task.sleep, such as the replay's pacing, tell a stop from a failure.
    public func sleep(for amount: TimeAmount) async throws {
        let scheduled = scheduleTask(in: amount) {}
        do {
            try await withTaskCancellationHandler {
                try await scheduled.futureResult.get()
            } onCancel: {
                scheduled.cancel()
            }
        } catch EventLoopError.cancelled {
            throw CancellationError()
        }
    }

    /// ``sleep(for:)-(TimeAmount)`` for a standard library `Duration`, to the nanosecond.
    public func sleep(for duration: Duration) async throws {
        let (seconds, attoseconds) = duration.components
        try await sleep(for: TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
