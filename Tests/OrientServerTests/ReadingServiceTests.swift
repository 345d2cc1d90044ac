import Logging
import OrientConfiguration
import OrientCore
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

        func start(_ settings: LiveSettings<SourceSettings>, _ deliver: @escaping @Sendable (ReadingEvent) -> NextRead)
            -> CaptureHandle
        {
            starts.withLock { $0 += 1 }
            open.withLock { $0 += 1 }
            _ = deliver(.reading(.light(level: 12, unit: .lux)))
            let handle = CaptureHandle { self.open.withLock { $0 -= 1 } }
            handle.markFinished()
            return handle
        }

        func presence() -> AsyncStream<Bool> { AsyncStream { $0.yield(true) } }
    }

    /// A light source whose readings the test sends by hand, answered as the service answers the real one.
    final class ManualLight: ReadingSource {
        let kind = SensorKind.light
        private let deliver = Mutex<(@Sendable (ReadingEvent) -> NextRead)?>(nil)
        /// What the running capture was handed to read its interval from.
        let settings = Mutex<LiveSettings<SourceSettings>?>(nil)
        let starts = Mutex(0)

        func start(_ settings: LiveSettings<SourceSettings>, _ deliver: @escaping @Sendable (ReadingEvent) -> NextRead)
            -> CaptureHandle
        {
            self.settings.withLock { $0 = settings }
            starts.withLock { $0 += 1 }
            self.deliver.withLock { $0 = deliver }
            let handle = CaptureHandle { self.deliver.withLock { $0 = nil } }
            handle.markFinished()
            return handle
        }

        var isOpen: Bool { deliver.withLock { $0 != nil } }

        func send(_ event: ReadingEvent) -> NextRead? { deliver.withLock { $0 }?(event) }

        func presence() -> AsyncStream<Bool> { AsyncStream { $0.yield(true) } }
    }

    /// The light service's side of a ``ManualLight``: readings sent at times the test sets on the service's clock, and
    /// what its sink hears.
    final class LightFeed: Sendable {
        let source = ManualLight()
        private let clock = Mutex(0.0)
        private let news = Mutex<[SensorNews]>([])

        /// The light service on this feed's source, clock and sink.
        func served() -> ServedLight {
            ServedLight(source: source, now: { self.clock.withLock { $0 } }) { item in self.news.withLock { $0.append(item) } }
        }

        /// Sends a reading of `level` made at `time`; returns when the service wants the next.
        func read(_ level: Double, at time: Double) -> NextRead? {
            clock.withLock { $0 = time }
            return source.send(.reading(.light(level: level, unit: .lux)))
        }

        /// The sensor opened again; `publishedAsRead`: one whose levels go out as read (applesmc's, a fake one).
        func reopen(publishedAsRead: Bool = false) {
            var description = ReadingSensorDescription(kind: .light, id: "iio:device1", name: "als", interval: 0.8, foundBy: "test")
            description.publishedAsRead = publishedAsRead
            _ = source.send(.opened(description))
        }

        /// The levels the sink was handed, in order.
        var levels: [Double] {
            news.withLock { $0.compactMap { if case .read(.light(let level, _)) = $0 { level } else { nil } } }
        }

        /// The incidents the sink was handed, in order.
        var incidents: [String] {
            news.withLock { $0.compactMap { if case .incident(let what) = $0 { what } else { nil } } }
        }
    }

    /// The light service on a ``LightFeed`` of its own, running, claimed by one D-Bus client and its source open.
    private func claimedLight(
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> (feed: LightFeed, service: SensorService<ServedLight>, running: Task<Void, Never>) {
        let feed = LightFeed()
        let demand = SensorDemand()
        let service = SensorService(feed.served(), demand: demand, logger: Logger(label: "test"))
        let running = Task { await service.run() }
        demand.setClaims(1, of: .light)
        #expect(await waitFor { feed.source.isOpen }, "the claimed source opened", sourceLocation: sourceLocation)
        return (feed, service, running)
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
        demand.setClaims(1, of: .accelerometer)
        let level = await first.next()
        #expect(level?.claims(of: .accelerometer) == 1 && level?.claims(of: .light) == 1)
        #expect(await second.next()?.claims(of: .accelerometer) == 1)
        demand.setClaims(0, of: .light)
        #expect(await first.next() == SensorDemand.Level(claims: [.accelerometer: 1]), "an unclaimed kind is absent")
    }

    @Test("Opens its source only while its kind is claimed, hands events to its sink, opens it again at a resume (counted as an incident) but not while closed, and stops at graceful shutdown")
    func claimedOnly() async throws {
        let source = RecordingLight()
        let demand = SensorDemand()
        let received = Mutex<[SensorNews]>([])
        let service = SensorService(
            ServedLight(source: source) { news in
                switch news {
                case .present, .started, .stopped: break
                default: received.withLock { $0.append(news) }
                }
            }, demand: demand, logger: Logger(label: "test"))
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await service.run() }
                demand.setClaims(1, of: .light)
                #expect(await waitFor { source.open.withLock { $0 } == 1 })
                #expect(received.withLock { $0 } == [.read(.light(level: 12, unit: .lux))])
                demand.setClaims(1, of: .accelerometer)
                demand.setSocketDemand(SocketDemand(subscribers: 2))
                demand.setClaims(0, of: .light)
                #expect(
                    await waitFor { source.open.withLock { $0 } == 0 },
                    "closed when nobody claims it: the accelerometer's demand does not keep it open")
                // Back from sleep while nobody claims it: nothing is opened, nothing counted.
                demand.resumed()
                demand.setClaims(1, of: .light)
                #expect(await waitFor { source.starts.withLock { $0 } == 2 })
                // Back from sleep: the open source is stopped and started again.
                demand.resumed()
                #expect(await waitFor { source.starts.withLock { $0 } == 3 }, "opened again at a resume")
                #expect(await waitFor { source.open.withLock { $0 } == 1 })
                #expect(source.starts.withLock { $0 } == 3, "the resume while closed opened nothing")
                let resumes = received.withLock { $0 }.filter { $0 == .incident("resumed from sleep: opened again") }
                #expect(resumes.count == 1, "counted at the resume of the open source only")
                trigger.triggerGracefulShutdown()
                try await tasks.next()
                #expect(source.open.withLock { $0 } == 0, "stopped when the service returns")
            }
        }
    }

    @Test("Light levels pass the filter: noise and a shadow are held back, a lasting change is confirmed by a read a hold later (shorter for lights off), and a reload's light-threshold applies")
    func filtered() async throws {
        let (feed, service, running) = await claimedLight()
        #expect(feed.read(300, at: 0) == .onSchedule)
        #expect(feed.read(310, at: 0.8) == .onSchedule, "noise")
        let hold = LightFilter.shadowHold
        /// Whether the service asked for a read `seconds` from now.
        func asks(_ next: NextRead?, within seconds: Double) -> Bool {
            guard case .within(let asked) = next else { return false }
            return abs(asked - seconds) < 1e-9
        }
        #expect(asks(feed.read(150, at: 1.6), within: hold), "a departure: read again sooner to confirm it")
        #expect(feed.read(305, at: 2.4) == .onSchedule, "the shadow passed")
        #expect(asks(feed.read(140, at: 3.2), within: hold), "dimmer by less than 2.4 times: a shadow's hold")
        #expect(feed.read(141, at: 3.2 + hold) == .onSchedule)
        #expect(feed.levels == [300, 140], "the median of the readings held, a value read")
        guard case .within(let short) = feed.read(4, at: 7) else { Issue.record("lights off: no early read asked"); return }
        #expect(abs(short - LightFilter.shortHold) < 1e-9, "three times dimmer and more: lights off, a short hold")
        #expect(feed.read(4.2, at: 7 + LightFilter.shortHold) == .onSchedule)
        #expect(feed.levels == [300, 140, 4.2])

        var configuration = DaemonConfiguration()
        configuration.lightThreshold = 0
        let answer = await service.configure(RunSettings(configuration, panel: .portraitUntilTold))
        #expect(answer.refusal == nil && answer.reads.whileRunning == ["light-threshold"])
        #expect(feed.read(22, at: 8) == .onSchedule)
        #expect(feed.levels == [300, 140, 4.2, 22], "threshold 0: every change at once")

        feed.reopen()
        configuration.lightThreshold = 0.2
        _ = await service.configure(RunSettings(configuration, panel: .portraitUntilTold))
        #expect(feed.read(23, at: 9) == .onSchedule)
        #expect(feed.levels == [300, 140, 4.2, 22, 23], "a sensor opened again publishes its first reading")
        running.cancel()
        await running.value
    }

    @Test("New settings for the light sensor's source reach its running capture: not opened again, its filter kept")
    func sourceSettingsWhileReading() async throws {
        let (feed, service, running) = await claimedLight()
        #expect(feed.source.settings.withLock { $0 }?.current == SourceSettings(), "the drivers' own interval")
        #expect(feed.read(300, at: 0) == .onSchedule)
        guard case .within = feed.read(150, at: 1.6) else { Issue.record("a departure: no early read asked"); return }
        _ = await service.apply(ServedLight.Settings(threshold: DaemonConfiguration().lightThreshold, source: SourceSettings(interval: 2)))
        #expect(await waitFor { feed.source.settings.withLock { $0 }?.current.interval == 2 })
        #expect(feed.source.starts.withLock { $0 } == 1, "not opened again")
        #expect(feed.read(151, at: 1.6 + LightFilter.shadowHold) == .onSchedule)
        #expect(feed.levels == [300, 150], "the departure held before the change was confirmed: the filter kept its readings")
        running.cancel()
        await running.value
    }

    @Test("A sensor whose levels go out as read (applesmc's, a fake one): each is published at the read that sees it, none asked for early; the next sensor opened is filtered again")
    func publishedAsRead() async throws {
        let (feed, _, running) = await claimedLight()
        feed.reopen(publishedAsRead: true)
        #expect(feed.read(20, at: 0) == .onSchedule)
        #expect(feed.read(100, at: 8) == .onSchedule, "no read asked to confirm it")
        #expect(feed.read(21, at: 16) == .onSchedule)
        #expect(feed.levels == [20, 100, 21])
        feed.reopen()
        _ = feed.read(300, at: 17)
        guard case .within = feed.read(150, at: 17.8) else { Issue.record("filtered again: no early read asked"); return }
        #expect(feed.levels == [20, 100, 21, 300])
        running.cancel()
        await running.value
    }

    @Test("A sensor opened again that first reads 0 after light: the 0 is held back, read again soon from the sensor itself, and status counts the doubt")
    func doubtedZero() async throws {
        let (feed, _, running) = await claimedLight()
        _ = feed.read(300, at: 0)
        feed.reopen()
        guard case .fresh(let soon) = feed.read(0, at: 10) else { Issue.record("no read from the sensor itself asked"); return }
        #expect(abs(soon - LightFilter.zeroRecheck) < 1e-9)
        #expect(feed.levels == [300], "the 0 held back")
        #expect(feed.incidents == ["read 0 as it opened again, after light: read again before 0 is published"])
        _ = feed.read(280, at: 10.2)
        #expect(feed.levels == [300, 280])
        running.cancel()
        await running.value
    }

    @Test("Socket readers open it as claims do: the sink hears the presence, then started, the source's events and stopped, in order")
    func socketReaders() async throws {
        let source = RecordingLight()
        let demand = SensorDemand()
        let news = Mutex<[SensorNews]>([])
        let service = SensorService(
            ServedLight(source: source) { item in news.withLock { $0.append(item) } }, demand: demand, logger: Logger(label: "test"))
        let running = Task { await service.run() }
        #expect(await waitFor { news.withLock { $0 } == [.present(true)] }, "udev's word, with the sensor closed")
        demand.setSocketDemand(SocketDemand(readers: [.light: 1, .proximity: 2]))
        #expect(await waitFor { source.open.withLock { $0 } == 1 }, "a socket client alone opens it")
        demand.setClaims(1, of: .light)
        demand.setSocketDemand(SocketDemand(readers: [.proximity: 2]))
        demand.setClaims(0, of: .light)
        #expect(await waitFor { source.open.withLock { $0 } == 0 }, "closed when neither a claim nor a socket client wants it")
        #expect(await waitFor { news.withLock { $0 }.count == 4 })
        #expect(news.withLock { $0 } == [.present(true), .started, .read(.light(level: 12, unit: .lux)), .stopped])
        #expect(source.starts.withLock { $0 } == 1, "the claim and the reader overlapped: opened once")
        running.cancel()
        await running.value
    }

    @Test("Cancelled (a daemon that failed at start), it returns and stops its source")
    func cancellation() async {
        let source = RecordingLight()
        let demand = SensorDemand()
        demand.setClaims(1, of: .light)
        let service = SensorService(ServedLight(source: source) { _ in }, demand: demand, logger: Logger(label: "test"))
        let running = Task { await service.run() }
        #expect(await waitFor { source.open.withLock { $0 } == 1 })
        running.cancel()
        await running.value
        #expect(source.open.withLock { $0 } == 0)
    }
}
