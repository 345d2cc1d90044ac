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
        let publisher = try await loop.submit {
            // Who follows the system state as it changes: the D-Bus facade and the tablet-mode switch, each optional.
            let dependencies = Publisher.Dependencies(
                clock: EventLoopClock(loop), subscribersChanged: { sensorInbox.send(.subscribers($0)) },
                freshStateWanted: { sensorInbox.send(.freshStateWanted($0)) }
            ) { state in
                facade?.update(state)
                do {
                    try tabletModeSwitch?.value.report(state.hinge.tabletMode)
                } catch {
                    logger.warning("tablet-mode switch: \(error)")
                }
            }
            return NIOLoopBound(
                Publisher(
                    settings: publisherSettings(configuration, panel: panel, options: options), persistent: persistent,
                    version: OrientdVersion.string, dependencies: dependencies),
                eventLoop: loop)
        }.get()
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
        let controls = try await loop.submit {
            NIOLoopBound(
                ControlQueue(publisher: publisher.value, save: { try store.save($0) }) { work, done in
                    blocking.runIfActive(eventLoop: loop, work).assumeIsolated().whenComplete { result in
                        if case .failure(let error) = result { done(error) } else { done(nil) }
                    }
                },
                eventLoop: loop)
        }.get()

        let server = SocketServer(
            eventLoop: loop, publisher: publisher, controls: controls, policy: policy, listener: listener, logger: logger
        ) {
            notifier.notify("READY=1\nSTATUS=Serving orientation on \(configuration.socketPath)")
        }
        @Sendable func apply(_ next: DaemonConfiguration, _ panel: PanelDetection) async throws -> String? {
            let admitted = next.maxClients == configuration.maxClients
                ? nil : DescriptorLimit.fit(maxClients: next.maxClients, logger: logger)
            let problem = try await loop.submit {
                policy.value.authorizer = ControlAuthorizer(group: next.controlGroup)
                if let admitted { policy.value.maximumClients = admitted }
                policy.value.requestTimeout = timeAmount(next.requestTimeout)
                return publisher.value.reconfigure(publisherSettings(next, panel: panel, options: options))
            }.get()
            facade?.setNatural(panel.natural)
            sensor.send(.reconfigure(pipelineSettings(next, panel: panel, replayWaitFor: options.replayWaitFor, keepOpen: keepSensorOpen)))
            return problem
        }
        let running = RunningConfiguration(
            started: configuration, detected: detected, traceNatural: traceNatural, logger: logger, read: reload,
            apply: apply)
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
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, logger: logger)
        // Below the unit's TimeoutStopSec, so systemd never has to kill the daemon.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)
        do {
            try await ServiceGroup(configuration: groupConfiguration).run()
        } catch {
            notifier.notify("STOPPING=1")
            try? await blocking.shutdownGracefully()
            try? await threads.shutdownGracefully()
            throw error
        }
        notifier.notify("STOPPING=1")
        try await blocking.shutdownGracefully()
        try await threads.shutdownGracefully()
        logger.info("stopped")
    }

    private static func timeAmount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

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
                tablet-mode-switch.conf (README, "Convertibles")
                """)
            return nil
        }
    }

    private static func publisherSettings(
        _ c: DaemonConfiguration, panel: PanelDetection, options: RunOptions
    ) -> Publisher.Settings {
        // A replay waiting for N subscribers is a test's setup: a `get` must not start it, so it answers at once.
        Publisher.Settings(
            configuredMask: c.systemMask, preferred: c.preferred, sampling: c.sampling, mountRepair: c.engine.mountRepair,
            freshWait: options.replayWaitFor == nil ? 1 : nil, rotateIn: c.engine.rotateIn, panel: panel)
    }

    /// `keepOpen`: read the sensor with nobody subscribed, as `sampling = always` does (the tablet-mode switch
    /// must follow the hinge whether or not anyone listens on the socket or the bus).
    private static func pipelineSettings(
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
