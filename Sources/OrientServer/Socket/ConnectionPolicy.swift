/// What a reload can change about accepting clients. Used only on the server's event loop.
public final class ConnectionPolicy {
    public var authorizer: ControlAuthorizer
    public var maximumClients: Int

    public init(authorizer: ControlAuthorizer, maximumClients: Int) {
        self.authorizer = authorizer
        self.maximumClients = maximumClients
    }
}
