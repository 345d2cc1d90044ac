import NIOCore

extension EventLoop {
    /// Sleeps on this loop's timer. Task.sleep would go through the runtime's delayed global enqueue, which is
    /// libdispatch's, and starting libdispatch's pool wakes the process every second for good (main.swift).
    public func sleep(for amount: TimeAmount) async throws {
        let scheduled = scheduleTask(in: amount) {}
        try await withTaskCancellationHandler {
            try await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }
}
