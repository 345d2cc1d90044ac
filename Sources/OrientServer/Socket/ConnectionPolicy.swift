import NIOCore

/// What the socket's connections are held to: who may control, how many clients, how long a request line may
/// take. Lives on the server's event loop; ``ConnectionPolicyPart`` sets it from the configuration.
public final class ConnectionPolicy {
    public internal(set) var authorizer: ControlAuthorizer
    /// `max-clients`, or fewer when the open-file limit cannot hold that many (``DescriptorLimit``).
    public internal(set) var maximumClients: Int
    /// How long a started request line may stay unfinished (see ``RequestLineTimer``).
    public internal(set) var requestTimeout: TimeAmount
    /// `max-clients` as last configured, which ``maximumClients`` was fitted from.
    var configuredMaximumClients: Int?

    /// Until configured: root only, one client, 10 s.
    public init(authorizer: ControlAuthorizer = ControlAuthorizer(group: nil), maximumClients: Int = 1, requestTimeout: TimeAmount = .seconds(10)) {
        self.authorizer = authorizer
        self.maximumClients = maximumClients
        self.requestTimeout = requestTimeout
    }
}
