import NIOCore
import NIOEmbedded
import OrientServer
import Testing

@Suite("Sleeping on an event loop")
struct EventLoopSleepTests {
    @Test("Cancelled, it throws CancellationError as Task.sleep does, so a replay's stop is not taken for a failure")
    func cancelled() async {
        let loop = NIOAsyncTestingEventLoop()
        let sleeper = Task { try await loop.sleep(for: .seconds(60)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        await loop.shutdownGracefully()
    }
}
