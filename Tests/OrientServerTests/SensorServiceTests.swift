import Logging
import NIOCore
import NIOPosix
import OrientConfiguration
import OrientCore
import OrientSampleSource
import OrientServer
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

/// The sensor service under ServiceLifecycle's test kit, on a source that records what it is asked.
@Suite("Sensor service")
struct SensorServiceTests {
    /// Records each start's capture settings and whether a capture is running; sends nothing.
    final class RecordingSource: SampleSource {
        let starts = Mutex<[CaptureSettings]>([])
        let open = Mutex(0)

        func start(_ settings: LiveSettings<CaptureSettings>, _ deliver: @escaping @Sendable (SensorEvent) -> NextRead)
            -> CaptureHandle
        {
            starts.withLock { $0.append(settings.current) }
            open.withLock { $0 += 1 }
            let handle = CaptureHandle { self.open.withLock { $0 -= 1 } }
            handle.markFinished()
            return handle
        }
    }

    private func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("Opens for demand, restarts the capture with new settings on reload, and stops at graceful shutdown")
    func lifecycle() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let publisher = try await loop.submit { NIOLoopBound(Publisher(clock: ManualClock()), eventLoop: loop) }.get()
        let source = RecordingSource()
        let demand = SensorDemand()
        let service = SensorService(
            ServedAccelerometer(source: source, eventLoop: loop, publisher: publisher, logger: Logger(label: "test")), demand: demand,
            logger: Logger(label: "test"))
        var configuration = DaemonConfiguration()
        _ = await service.configure(RunSettings(configuration, panel: .portraitUntilTold))

        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await service.run() }
                #expect(source.starts.withLock { $0.isEmpty }, "nobody wants the sensor yet")
                demand.setSocketDemand(SocketDemand(subscribers: 1))
                #expect(await waitFor { source.starts.withLock { $0.count } == 1 })
                #expect(source.starts.withLock { $0.last?.rate } == 50)

                configuration.rate = 100
                configuration.stillRate = nil
                _ = await service.configure(RunSettings(configuration, panel: .portraitUntilTold))
                #expect(await waitFor { source.starts.withLock { $0.count } == 2 }, "a new rate restarts the capture")
                #expect(source.starts.withLock { $0.last } == CaptureSettings(rate: 100, stillRate: nil))
                #expect(source.open.withLock { $0 } == 1, "the old capture was stopped first")

                _ = await service.configure(RunSettings(configuration, panel: .portraitUntilTold))
                demand.setClaims(1, of: .accelerometer)
                try await Task.sleep(for: .milliseconds(50))
                #expect(source.starts.withLock { $0.count } == 2, "the same settings, or more demand, restart nothing")

                trigger.triggerGracefulShutdown()
                try await tasks.next()
                #expect(source.open.withLock { $0 } == 0, "the capture is stopped when the service returns")
            }
        }
        try await group.shutdownGracefully()
    }

    @Test("Cancelled (a daemon that failed at start), it returns and stops the capture")
    func cancellation() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let publisher = try await loop.submit { NIOLoopBound(Publisher(clock: ManualClock()), eventLoop: loop) }.get()
        let source = RecordingSource()
        let demand = SensorDemand()
        let service = SensorService(
            ServedAccelerometer(source: source, eventLoop: loop, publisher: publisher, keepOpen: true, logger: Logger(label: "test")),
            demand: demand, logger: Logger(label: "test"))
        let running = Task { await service.run() }
        #expect(await waitFor { source.open.withLock { $0 } == 1 }, "kept open with nobody subscribed")
        running.cancel()
        await running.value
        #expect(source.open.withLock { $0 } == 0)
        try await group.shutdownGracefully()
    }
}
