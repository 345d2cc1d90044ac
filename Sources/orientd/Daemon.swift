import Logging
import NIOCore
import NIOPosix
import OrientCore
import OrientDBus
import OrientInput
import OrientProtocol
import OrientSampleSource
import OrientSensors
import OrientServer
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's wiring, in one place: every long-lived object is built here and handed to a ServiceGroup.
enum Daemon {
    static func run(
        configuration: DaemonConfiguration, options: RunOptions, environment: [String: String],
        reload: @escaping @Sendable () throws -> DaemonConfiguration, logger: Logger
    ) async throws {
        let source = try SourceChoice.make(options: options, configuration: configuration, logger: logger)
        let detected = PanelDiscovery.detect()
        let traceNatural = (source as? ReplaySource)?.naturalOrientation
        let panel = RunningConfiguration.panel(for: configuration, detected: detected, traceNatural: traceNatural)
        logger.info("natural orientation: \(panel.description)")
        let listener = SocketActivation.listener(environment: environment) ?? .path(
            configuration.socketPath, mode: configuration.socketMode)
        let notifier = SystemdNotifier(environment: environment)
        let admitted = DescriptorLimit.fit(maxClients: configuration.maxClients, logger: logger)

        // One event loop thread serves every connection and owns the publisher.
        let threads = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = threads.next()
        // One thread for what may block on the disk (the state file's fsyncs, /etc/group), so the loop never does.
        let blocking = NIOThreadPool(numberOfThreads: 1)
        blocking.start()

        let startupPages = StartupPages(logger: logger)
        let store = StateStore(directory: configuration.stateDirectory)
        let persistent = loadState(store, logger: logger)
        // Made before the sensor service: while it exists, the sensor stays open.
        let tabletModeSwitch = configuration.tabletModeSwitch
            ? try await loop.submit { makeTabletModeSwitch(on: loop, logger: logger) }.get() : nil
        // The sensor service's controls, made first: the publisher and the D-Bus facade report to it.
        let sensorInbox = SensorService.Inbox()
        let facade = configuration.dbus
            ? try SensorProxyService(presence: source.presence(), logger: logger) { claimed in
                sensorInbox.send(.claims(claimed ? 1 : 0))
            } : nil
        facade?.setNatural(panel.natural)
        let publisher = try await makePublisher(
            on: loop, settings: publisherSettings(configuration, panel: panel, options: options), persistent: persistent,
            sensor: sensorInbox, logger: logger, becameFresh: { startupPages.release("the sensor is read") }
        ) { state in
            // Who follows the system state as it changes: the D-Bus facade and the tablet-mode switch, each optional.
            facade?.update(state)
            do { try tabletModeSwitch?.value.report(state.hinge.tabletMode) } catch { logger.warning("tablet-mode switch: \(error)") }
        }
        let policy = try await loop.submit {
            NIOLoopBound(
                ConnectionPolicy(authorizer: ControlAuthorizer(group: configuration.controlGroup),
                                 maximumClients: admitted, requestTimeout: timeAmount(configuration.requestTimeout)),
                eventLoop: loop)
        }.get()

        let keepSensorOpen = tabletModeSwitch != nil
        let sensor = SensorService(
            source: source, eventLoop: loop, publisher: publisher,
            settings: pipelineSettings(configuration, panel: panel, replayWaitFor: options.replayWaitFor, keepOpen: keepSensorOpen),
            exitAtEnd: options.exitAtEnd, logger: logger, inbox: sensorInbox)
        let controls = try await makeControls(on: loop, publisher: publisher, store: store, disk: blocking)

        let server = SocketServer(
            eventLoop: loop, publisher: publisher, controls: controls, policy: policy, listener: listener, logger: logger
        ) {
            notifier.notify("READY=1\nSTATUS=Serving orientation on \(configuration.socketPath)")
            startupPages.release("serving")
        }
        let reconfigurable = Reconfigurable(
            loop: loop, policy: policy, publisher: publisher, sensor: sensor, facade: facade, options: options,
            keepSensorOpen: keepSensorOpen, logger: logger)
        let running = RunningConfiguration(
            started: configuration, detected: detected, traceNatural: traceNatural, logger: logger, read: reload,
            apply: reconfigurable.apply)
        let signals = SignalService(signals: ProcessSignals.stream(), logger: logger) { await running.reload() }

        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: server),
            .init(service: sensor, successTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: signals, successTerminationBehavior: .gracefullyShutdownGroup),
        ]
        if let facade { services.append(.init(service: facade)) }
        if running.followsPanel { services.append(.init(service: PanelWatch(running: running))) }
        if let watchdog = WatchdogService(environment: environment, processID: getpid(), eventLoop: loop, notifier: notifier) {
            services.append(.init(service: watchdog))
        }
        try await runUntilStopped(services, notifier: notifier, pools: (blocking, threads), logger: logger)
    }

    /// The publisher, on the loop it lives on, reporting to the sensor service and to `systemStateChanged`.
    private static func makePublisher(
        on loop: any EventLoop, settings: Publisher.Settings, persistent: PersistentState, sensor: SensorService.Inbox,
        logger: Logger, becameFresh: @escaping @Sendable () -> Void,
        systemStateChanged: @escaping @Sendable (OrientationState) -> Void
    ) async throws -> NIOLoopBound<Publisher> {
        try await loop.submit {
            let dependencies = Publisher.Dependencies(
                clock: EventLoopClock(loop), subscribersChanged: { sensor.send(.subscribers($0)) },
                freshStateWanted: { sensor.send(.freshStateWanted($0)) }, systemStateChanged: systemStateChanged,
                becameFresh: becameFresh)
            return NIOLoopBound(
                Publisher(
                    settings: settings, persistent: persistent, version: OrientdVersion.string,
                    dependencies: dependencies),
                eventLoop: loop)
        }.get()
    }

    /// Lock, unlock and set-mask, in order, each saved on `disk` (a thread that may block) before it is answered.
    private static func makeControls(
        on loop: any EventLoop, publisher: NIOLoopBound<Publisher>, store: StateStore, disk: NIOThreadPool
    ) async throws -> NIOLoopBound<ControlQueue> {
        try await loop.submit {
            NIOLoopBound(
                ControlQueue(publisher: publisher.value, save: { try store.save($0) }) { work, done in
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
        // Below the unit's TimeoutStopSec, so systemd never has to kill the daemon.
        configuration.maximumGracefulShutdownDuration = .seconds(5)
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

    static func timeAmount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

    /// The uinput device, bound to the loop that publishes, or nil (said once in the log) when it cannot be made:
    /// the daemon serves on without it.
    private static func makeTabletModeSwitch(on loop: any EventLoop, logger: Logger) -> NIOLoopBound<TabletModeSwitch>? {
        do {
            let device = try TabletModeSwitch()
            logger.info("tablet-mode switch: \(TabletModeSwitch.deviceName) created through \(TabletModeSwitch.devicePath)")
            return NIOLoopBound(device, eventLoop: loop)
        } catch {
            logger.error("""
                tablet-mode switch: \(error); tablet mode is published on the socket and D-Bus only. It needs the \
                uinput module and write access to \(TabletModeSwitch.devicePath): as a service, the drop-in \
                tablet-mode-switch.conf (docs/convertibles.md, "The tablet-mode switch")
                """)
            return nil
        }
    }

    static func publisherSettings(
        _ c: DaemonConfiguration, panel: PanelDetection, options: RunOptions
    ) -> Publisher.Settings {
        // A replay waiting for N subscribers is a test's setup: a `get` must not start it, so it answers at once.
        Publisher.Settings(
            configuredMask: c.systemMask, preferred: c.preferred, sampling: c.sampling, mountRepair: c.engine.mountRepair,
            freshWait: options.replayWaitFor == nil ? 1 : nil, rotateIn: c.engine.rotateIn, panel: panel)
    }

    /// `keepOpen`: read the sensor with nobody subscribed, as `sampling = always` does (the tablet-mode switch
    /// must follow the hinge whether or not anyone listens on the socket or the bus).
    static func pipelineSettings(
        _ c: DaemonConfiguration, panel: PanelDetection, replayWaitFor: Int?, keepOpen: Bool
    ) -> PipelineSettings {
        let subscribersToRun = replayWaitFor ?? (c.sampling == .always || keepOpen ? 0 : 1)
        var engine = c.engine
        engine.natural = panel.natural
        return PipelineSettings(engine: engine, subscribersToRun: subscribersToRun)
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
