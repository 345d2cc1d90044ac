/// The `code` of an error reply. Stable: scripts may match on them.
public enum ErrorCode: String, Sendable, CaseIterable, Codable {
    /// The line is not valid JSON.
    case badJSON = "bad-json"
    /// Valid JSON, but not a request object (no `op`, not an object).
    case badRequest = "bad-request"
    /// `op` names no operation.
    case unknownOperation = "unknown-op"
    /// A field has the wrong type or value.
    case badField = "bad-field"
    /// The peer may not change system state (not root, not in the control group).
    case permissionDenied = "permission-denied"
    /// The request would leave no allowed orientation; nothing changed.
    case emptyMask = "empty-mask"
    /// A request line over the limit; the connection is then closed.
    case lineTooLong = "line-too-long"
    /// A request line was started and not finished within the request timeout; the connection is then closed.
    case requestTimeout = "request-timeout"
    /// The daemon is serving its maximum number of clients; the connection is then closed.
    case tooManyClients = "too-many-clients"
    /// Something failed inside the daemon (for example the state file could not be written).
    case internalError = "internal-error"
}

/// A request that cannot be carried out, with the reply's code and a message for people.
public struct ProtocolError: Error, Equatable, Sendable {
    public let code: ErrorCode
    public let message: String
    /// The request's `id`, when it could be read, so the error reply can echo it.
    public var id: RequestID?

    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }
}
