import Logging
import NIOCore
import OrientConfiguration

/// The connection policy as a configured part: `control-group`, `max-clients` (fitted into the open-file limit
/// when it changes) and `request-timeout`, applied on the server's event loop to connections from then on.
public struct ConnectionPolicyPart: ConfiguredPart {
    public struct Slice: Sendable, Equatable {
        public var controlGroup: String?
        public var maximumClients: Int
        /// Seconds.
        public var requestTimeout: Double
    }

    private let policy: NIOLoopBound<ConnectionPolicy>
    private let logger: Logger

    public init(_ policy: NIOLoopBound<ConnectionPolicy>, logger: Logger) {
        self.policy = policy
        self.logger = logger
    }

    public static let reads = SettingsRead(whileRunning: [\.controlGroup, \.maxClients, \.requestTimeout])

    public static func slice(of settings: RunSettings) -> Slice {
        let c = settings.configuration
        return Slice(controlGroup: c.controlGroup, maximumClients: c.maxClients, requestTimeout: c.requestTimeout)
    }

    public func apply(_ slice: Slice) async -> Refusal? {
        let (policy, logger) = (self.policy, self.logger)
        try? await policy.eventLoop.submit {
            let policy = policy.value
            policy.authorizer = ControlAuthorizer(group: slice.controlGroup)
            policy.requestTimeout = .nanoseconds(Int64(slice.requestTimeout * 1e9))
            // Refitted only when max-clients moves: fitting may raise the process's open-file limit, and says so.
            if policy.configuredMaximumClients != slice.maximumClients {
                policy.maximumClients = DescriptorLimit.fit(maxClients: slice.maximumClients, logger: logger)
                policy.configuredMaximumClients = slice.maximumClients
            }
        }.get()
        return nil
    }
}
