import Logging
import NIOCore
import OrientCore
import OrientDBus
import OrientServer

/// The parts of a running daemon that take a new configuration without a restart: the connection policy, the
/// publisher, the sensor pipeline and the D-Bus facade's names. ``RunningConfiguration`` decides what to apply
/// and when (SIGHUP, a panel appearing); this applies it.
struct Reconfigurable: Sendable {
    let loop: any EventLoop
    let policy: NIOLoopBound<ConnectionPolicy>
    let publisher: NIOLoopBound<Publisher>
    let sensor: SensorService
    let facade: SensorProxyService?
    let options: RunOptions
    let keepSensorOpen: Bool
    let logger: Logger

    /// Hands `next` and the panel to every part; returns a problem the publisher found (a mask that would strand
    /// subscribers, which it keeps the old one for), to be logged. The open-file limit is refitted only when
    /// max-clients moves from `previous`, the configuration in force until now.
    @Sendable func apply(
        _ next: DaemonConfiguration, replacing previous: DaemonConfiguration, _ panel: PanelDetection
    ) async throws -> String? {
        let admitted = next.maxClients == previous.maxClients
            ? nil : DescriptorLimit.fit(maxClients: next.maxClients, logger: logger)
        let (policy, publisher, options) = (self.policy, self.publisher, self.options)
        let problem = try await loop.submit {
            policy.value.authorizer = ControlAuthorizer(group: next.controlGroup)
            if let admitted { policy.value.maximumClients = admitted }
            policy.value.requestTimeout = Daemon.timeAmount(next.requestTimeout)
            return publisher.value.reconfigure(Daemon.publisherSettings(next, panel: panel, options: options))
        }.get()
        facade?.setNatural(panel.natural)
        sensor.send(.reconfigure(Daemon.pipelineSettings(
            next, panel: panel, replayWaitFor: options.replayWaitFor, keepOpen: keepSensorOpen)))
        return problem
    }
}
