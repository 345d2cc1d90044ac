import NIOCore

/// What a reload can change about accepting clients. Used only on the server's event loop.
public final class ConnectionPolicy {
    public var authorizer: ControlAuthorizer
    public var maximumClients: Int
    /// How long a started request line may stay unfinished (see ``RequestLineTimer``).
    public var requestTimeout: TimeAmount

    public init(authorizer: ControlAuthorizer, maximumClients: Int, requestTimeout: TimeAmount) {
        self.authorizer = authorizer
        self.maximumClients = maximumClients
        self.requestTimeout = requestTimeout
    }
}
