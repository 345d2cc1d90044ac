import Logging
import NIOCore
import NIOPosix
import OrientConfiguration
import OrientCore
import OrientDBus
import OrientProtocol
import OrientSampleSource
import OrientSensors
import OrientServer
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's wiring, in one place: every long-lived object is built here and handed to a ServiceGroup.
///
/// Data flows one way: each kind's source feeds its sensor service (the accelerometer's runs the engine), which
/// feeds the publisher, the store, on the event loop; the store has two views, the socket subscribers and the D-Bus
/// facade (one snapshot at each change); the tablet-mode switch's keeper is a socket subscriber, a process of its own
/// (`orientd-tablet-mode-switch`): the daemon never writes /dev/uinput. Demand for the
/// sensors flows back through one channel, ``SensorDemand``. Settings reach every part one way too:
/// ``RunningConfiguration`` hands them to each ``ConfiguredPart`` at start and at every reload, one change at a
/// time. docs/development/layout.md draws it.
enum Daemon {
    /// Every part that takes settings, in the order `run` configures them: one list, which `run` fills (the compiler
    /// checks it has made one of each) and `orientd run --help` reads, naming the settings read only at start.
    typealias Parts = PartList<
        ConnectionPolicyPart, PublisherPart, SensorService<ServedAccelerometer>,
        // The light, proximity and compass services, in that order.
        SensorService<ServedLight>, SensorService<ServedReading>, SensorService<ServedReading>,
        StartupChoices
    >

    static var partTypes: [any ConfiguredPart.Type] { Parts.types }

    static var readAtStart: Set<String> { Set(partTypes.flatMap { $0.reads.atStart }) }

    /// How long the services have, once one has ended, before the daemon exits anyway (``StopDeadline``); below
    /// the unit's TimeoutStopSec, so that systemd never has to kill it.
    static let stopBound = Duration.milliseconds(2500)

    static func run(
        configuration: DaemonConfiguration, options: RunOptions, environment: [String: String],
        reload: @escaping @Sendable () throws -> DaemonConfiguration, logger: Logger
    ) async throws {
        let start = StartupChoices.slice(of: RunSettings(configuration, panel: .portraitUntilTold))
        // The process's one view of udev: one monitor and one thread, handed to every part that looks at devices.
        let udev = UdevHub()
        let source = try SourceChoice.make(options: options, device: start.device, udev: udev, logger: logger)
        let traceNatural = (source as? ReplaySource)?.naturalOrientation
        let listener = SocketActivation.listener(environment: environment) ?? .path(start.socketPath, mode: start.socketMode)
        let notifier = SystemdNotifier(environment: environment)

        // One event loop thread serves every connection and owns the publisher.
        let threads = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = threads.next()
        // One thread for what may block on the disk (the state file's fsyncs, /etc/group), so the loop never does.
        let blocking = NIOThreadPool(numberOfThreads: 1)
        blocking.start()

        let startupPages = StartupPages(logger: logger)
        let store = StateStore(directory: start.stateDirectory)
        let persistent = loadState(store, logger: logger)
        let demand = SensorDemand()
        // The one-value sensors (light, proximity, compass) are served beside a live accelerometer, not a replay, on
        // the socket and on D-Bus.
        let allReadings = ReadingSources.all(udev: udev, logger: logger)
        let readingSources = source is ReplaySource ? [] : allReadings
        // The facade's connection follows logind too: at a resume every open sensor is opened again.
        let facade = start.dbus
            ? try SensorProxyService(
                logger: logger,
                sleepChanged: { sleeping in
                    if sleeping { logger.info("the machine goes to sleep") } else { demand.resumed() }
                },
                // Connecting, and udev's look at the sensors before it, come after the socket serves.
                nameRequested: { loop.execute { startupPages.release("on the bus") } }
            ) { demand.setClaims($1, of: $0) }
            : nil
        let publisher = try await makePublisher(
            on: loop, persistent: persistent, demand: demand, readingKinds: readingSources.map(\.kind), logger: logger,
            becameFresh: { startupPages.release("the sensor is read") }, sensorsChanged: { facade?.update($0) })
        // Made for every kind, served or not, so that each takes its settings as a part and a reload has its answer.
        // What a one-value sensor's service learns goes to the store, which the socket and the facade both show.
        let sources = Dictionary(uniqueKeysWithValues: allReadings.map { ($0.kind, $0) })
        func readingSource(_ kind: SensorKind) -> any ReadingSource {
            guard let source = sources[kind] else { preconditionFailure("ReadingSources.all has no \(kind) source") }
            return source
        }
        func readingSink(_ kind: SensorKind) -> @Sendable (SensorNews) -> Void {
            { news in loop.execute { publisher.value.take(news, of: kind) } }
        }
        // The light sensor's levels pass its filter; the others' readings go out as they come.
        let light = SensorService(
            ServedLight(source: readingSource(.light), sink: readingSink(.light)), demand: demand, logger: logger)
        let proximity = SensorService(
            ServedReading(source: readingSource(.proximity), sink: readingSink(.proximity)), demand: demand, logger: logger)
        let compass = SensorService(
            ServedReading(source: readingSource(.compass), sink: readingSink(.compass)), demand: demand, logger: logger)
        let readingServices: [(kind: SensorKind, service: any Service)] =
            [(.light, light), (.proximity, proximity), (.compass, compass)]
        // The services are typed parts, so the compiler cannot see a kind with drivers and no service: checked at
        // every start instead, in every build (every test that starts the daemon runs it).
        precondition(
            readingServices.map(\.kind) == allReadings.map(\.kind),
            "each one-value kind with drivers has a service: \(allReadings.map(\.kind)) against \(readingServices.map(\.kind))")
        let policy = try await loop.submit { NIOLoopBound(ConnectionPolicy(), eventLoop: loop) }.get()
        let sensor = SensorService(
            ServedAccelerometer(
                source: source, eventLoop: loop, publisher: publisher, subscribersToOpen: options.replayWaitFor,
                exitAtEnd: options.exitAtEnd, followsPresence: facade != nil, logger: logger),
            demand: demand, logger: logger)
        let controls = try await makeControls(on: loop, publisher: publisher, store: store, disk: blocking, logger: logger)

        // A `get` waits a second for a fresh state, unless the replay waits for subscribers (a test's setup: a `get`
        // must not start it, so it answers at once).
        let parts = Parts(
            ConnectionPolicyPart(policy, logger: logger),
            PublisherPart(publisher, freshWait: options.replayWaitFor == nil ? 1 : nil),
            sensor, light, proximity, compass, StartupChoices())
        let running = RunningConfiguration(
            started: configuration, detected: PanelDiscovery.detect(udev: udev), traceNatural: traceNatural,
            parts: parts.all, logger: logger, read: reload)
        await running.start()

        let server = SocketServer(
            eventLoop: loop, publisher: publisher, controls: controls, policy: policy, listener: listener, logger: logger
        ) {
            notifier.notify("READY=1\nSTATUS=Serving orientation on \(start.socketPath)")
            startupPages.release("serving")
        }
        let signals = SignalService(signals: ProcessSignals.stream(), logger: logger) { running.requestReload() }

        let deadline = StopDeadline(bound: stopBound, logger: logger)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: deadline.tracking(server, as: "socket server")),
            .init(service: deadline.tracking(sensor, as: "sensor service"), successTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: deadline.tracking(signals, as: "signals"), successTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: deadline.tracking(running, as: "configuration")),
        ]
        if let facade { services.append(.init(service: deadline.tracking(facade, as: "D-Bus facade"))) }
        for reading in readingServices where readingSources.contains(where: { $0.kind == reading.kind }) {
            services.append(.init(service: deadline.tracking(reading.service, as: "\(reading.kind.displayName) service")))
        }
        if running.followsPanel {
            let watch = PanelWatch(running: running, udev: udev)
            services.append(.init(service: deadline.tracking(watch, as: "panel watch")))
        }
        // A replayed trace has no machine to look at: its own base readings tell the posture (Publisher).
        if !(source is ReplaySource) {
            let watch = TabletModeSwitchWatch(publisher: publisher, udev: udev)
            services.append(.init(service: deadline.tracking(watch, as: "tablet-mode switch watch")))
        }
        if let watchdog = WatchdogService(environment: environment, processID: getpid(), eventLoop: loop, notifier: notifier) {
            services.append(.init(service: deadline.tracking(watchdog, as: "watchdog")))
        }
        try await runUntilStopped(services, notifier: notifier, pools: (blocking, threads), logger: logger)
    }

    /// The publisher, on the loop it lives on, telling `demand` what its clients want, `sensorsChanged` each new
    /// snapshot of the sensors, and the log each decision on the tablet-mode switch; `readingKinds` are the one-value
    /// sensors served. Its settings come from its part, at start.
    private static func makePublisher(
        on loop: any EventLoop, persistent: PersistentState, demand: SensorDemand, readingKinds: [SensorKind], logger: Logger,
        becameFresh: @escaping @Sendable () -> Void, sensorsChanged: @escaping @Sendable (SensorSnapshot) -> Void
    ) async throws -> NIOLoopBound<Publisher> {
        try await loop.submit {
            let dependencies = Publisher.Dependencies(
                clock: EventLoopClock(loop), demandChanged: { demand.setSocketDemand($0) },
                becameFresh: becameFresh, sensorsChanged: sensorsChanged,
                tabletModeSwitchDecided: { logger.notice("\($0.summary)") })
            return NIOLoopBound(
                Publisher(
                    settings: Publisher.Settings(), persistent: persistent, version: OrientdVersion.string,
                    readingKinds: readingKinds, dependencies: dependencies),
                eventLoop: loop)
        }.get()
    }

    /// Lock, unlock and set-mask, in order, each saved on `disk` (a thread that may block) before it is answered; a
    /// save that fails is refused to the client and said in the log, both naming the file or folder.
    private static func makeControls(
        on loop: any EventLoop, publisher: NIOLoopBound<Publisher>, store: StateStore, disk: NIOThreadPool,
        logger: Logger
    ) async throws -> NIOLoopBound<ControlQueue> {
        let save: @Sendable (PersistentState) throws -> Void = { state in
            do {
                try store.save(state)
            } catch {
                logger.error("cannot save the state, so the request is refused: \(error)")
                throw error
            }
        }
        return try await loop.submit {
            NIOLoopBound(
                ControlQueue(publisher: publisher.value, save: save) { work, done in
                    disk.runIfActive(eventLoop: loop, work).assumeIsolated().whenComplete { result in
                        if case .failure(let error) = result { done(error) } else { done(nil) }
                    }
                },
                eventLoop: loop)
        }.get()
    }

    /// Runs the services until SIGTERM or SIGINT, or until one of them ends the group; then stops the threads.
    private static func runUntilStopped(
        _ services: [ServiceGroupConfiguration.ServiceConfiguration], notifier: SystemdNotifier,
        pools: (blocking: NIOThreadPool, threads: MultiThreadedEventLoopGroup), logger: Logger
    ) async throws {
        var configuration = ServiceGroupConfiguration(services: services, logger: logger)
        // Within the stop's bound: a service still running then is cancelled, before StopDeadline ends the process.
        configuration.maximumGracefulShutdownDuration = .milliseconds(1500)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            notifier.notify("STOPPING=1")
            try? await pools.blocking.shutdownGracefully()
            try? await pools.threads.shutdownGracefully()
            throw error
        }
        notifier.notify("STOPPING=1")
        try await pools.blocking.shutdownGracefully()
        try await pools.threads.shutdownGracefully()
        logger.info("stopped")
    }

    private static func loadState(_ store: StateStore, logger: Logger) -> PersistentState {
        for name in store.removeLeftovers() { logger.notice("removed \(name), left in \(store.directory) by a daemon that died writing it") }
        switch store.load() {
        case .loaded(let state):
            logger.info("restored state from \(store.path): locked \(state.locked), mask \(state.mask?.name ?? "from configuration")")
            return state
        case .missing:
            return PersistentState()
        case .corrupt(let message):
            logger.error("\(message); ignoring it and starting unlocked with the configured mask")
            return PersistentState()
        }
    }
}

/// systemd socket activation: the listening socket arrives as fd 3 when LISTEN_PID is this process.
enum SocketActivation {
    static func listener(environment: [String: String]) -> SocketServer.Listener? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        // Children must not think the sockets are theirs.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return .inherited(descriptor: 3)
    }
}
