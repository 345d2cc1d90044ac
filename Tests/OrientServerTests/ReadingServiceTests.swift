import Logging
import OrientSampleSource
import OrientServer
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

/// The one-value sensors' service, and the demand it reads, on a source that records what it is asked.
@Suite("Reading service and the demand per kind")
struct ReadingServiceTests {
    /// A light source that counts its running captures and sends one reading at each start.
    final class RecordingLight: ReadingSource {
        let kind = SensorKind.light
        let starts = Mutex(0)
        let open = Mutex(0)

        func start(_ deliver: @escaping @Sendable (ReadingEvent) -> Void) -> CaptureHandle {
            starts.withLock { $0 += 1 }
            open.withLock { $0 += 1 }
            deliver(.reading(.light(level: 12, unit: .lux)))
            let handle = CaptureHandle { self.open.withLock { $0 -= 1 } }
            handle.markFinished()
            return handle
        }

        func presence() -> AsyncStream<Bool> { AsyncStream { $0.yield(true) } }
    }

    private func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("Each reader of the demand gets the level now and every change; claims are counted per kind")
    func demandPerKind() async {
        let demand = SensorDemand()
        demand.setClaims(1, of: .light)
        var first = demand.levels().makeAsyncIterator()
        var second = demand.levels().makeAsyncIterator()
        #expect(await first.next()?.claims(of: .light) == 1)
        #expect(await second.next()?.claims(of: .light) == 1)
        demand.setClaims(1)
        let level = await first.next()
        #expect(level?.claims(of: .accelerometer) == 1 && level?.claims(of: .light) == 1)
        #expect(await second.next()?.claims(of: .accelerometer) == 1)
        demand.setClaims(0, of: .light)
        #expect(await first.next() == SensorDemand.Level(claims: [.accelerometer: 1]), "an unclaimed kind is absent")
    }

    @Test("Opens its source only while its kind is claimed, hands events to its sink, and stops at graceful shutdown")
    func claimedOnly() async throws {
        let source = RecordingLight()
        let demand = SensorDemand()
        let received = Mutex<[ReadingEvent]>([])
        let service = ReadingService(source: source, demand: demand, logger: Logger(label: "test")) { event in
            received.withLock { $0.append(event) }
        }
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await service.run() }
                demand.setClaims(1, of: .light)
                #expect(await waitFor { source.open.withLock { $0 } == 1 })
                #expect(received.withLock { $0 } == [.reading(.light(level: 12, unit: .lux))])
                demand.setClaims(1)
                demand.setSubscribers(2)
                demand.setClaims(0, of: .light)
                #expect(
                    await waitFor { source.open.withLock { $0 } == 0 },
                    "closed when nobody claims it: the accelerometer's demand does not keep it open")
                demand.setClaims(1, of: .light)
                #expect(await waitFor { source.starts.withLock { $0 } == 2 })
                trigger.triggerGracefulShutdown()
                try await tasks.next()
                #expect(source.open.withLock { $0 } == 0, "stopped when the service returns")
            }
        }
    }

    @Test("Cancelled (a daemon that failed at start), it returns and stops its source")
    func cancellation() async {
        let source = RecordingLight()
        let demand = SensorDemand()
        demand.setClaims(1, of: .light)
        let service = ReadingService(source: source, demand: demand, logger: Logger(label: "test")) { _ in }
        let running = Task { await service.run() }
        #expect(await waitFor { source.open.withLock { $0 } == 1 })
        running.cancel()
        await running.value
        #expect(source.open.withLock { $0 } == 0)
    }
}
