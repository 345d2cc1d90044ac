import Logging
import NIOCore
import NIOEmbedded
import OrientProtocol
import Testing

@testable import OrientServer

/// The socket server's shared parts (publisher, control queue, policy, connection registry) on an embedded event
/// loop, and connections to it whose pipelines are built by `SocketServer.configurePipeline`, as the server builds
/// every accepted connection's. Time moves only through `loop.advanceTime`.
final class EmbeddedServer {
    let loop = EmbeddedEventLoop()
    let publisher: Publisher
    let policy: ConnectionPolicy
    let connections = ConnectionRegistry()
    let controls: ControlQueue
    private let savedStates = SavedStates()
    private let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    init(
        settings: Publisher.Settings = .init(freshWait: nil), authorizer: ControlAuthorizer = .rootOnly,
        maximumClients: Int = 10, requestTimeout: TimeAmount = .seconds(10)
    ) {
        publisher = Publisher(settings: settings)
        let savedStates = self.savedStates
        controls = ControlQueue(
            publisher: publisher, save: { state in savedStates.states.withLock { $0.append(state) } },
            // Checked and saved at once, in the request's turn: the queue's own ordering is ControlQueueTests'.
            runBlocking: { work, done in
                do { try work(); done(nil) } catch { done(error) }
            })
        policy = ConnectionPolicy(authorizer: authorizer, maximumClients: maximumClients, requestTimeout: requestTimeout)
    }

    /// A client that has just connected, as its peer credentials say (`nil`: they could not be read).
    /// Every state the control queue saved, in order.
    var saved: [PersistentState] { savedStates.all }

    func connect(as peer: PeerCredentials? = nil) throws -> EmbeddedClient {
        let channel = EmbeddedChannel(loop: loop)
        try SocketServer.configurePipeline(
            channel, publisher: publisher, controls: controls, policy: policy, connections: connections, logger: logger)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/run/orientd/orientd.sock")).wait()
        // An EmbeddedChannel has no socket to ask SO_PEERCRED of; the handler keeps what it would have read.
        try channel.pipeline.syncOperations.handler(type: ConnectionHandler.self).peer = peer
        return EmbeddedClient(channel: channel)
    }
}

/// One connection, seen from the client's side: what it writes, and the lines the server wrote back.
struct EmbeddedClient {
    let channel: EmbeddedChannel

    var isOpen: Bool { channel.isActive }

    func send(_ text: String) throws {
        try channel.writeInbound(channel.allocator.buffer(string: text))
    }

    /// The lines the server wrote since the last call, decoded.
    func received() throws -> [ServerMessage] {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        #expect(text.isEmpty || text.hasSuffix("\n"), "a line written without its newline: \(text)")
        return try text.split(separator: "\n").map { try ServerMessage.decode(Array($0.utf8)) }
    }

    /// Sends one request and returns what came back at once.
    func request(_ line: String) throws -> [ServerMessage] {
        try send(line + "\n")
        return try received()
    }

    func close() throws {
        try channel.close().wait()
    }
}

extension ControlAuthorizer {
    /// Root only, decided without reading /etc/group or /etc/passwd.
    static var rootOnly: ControlAuthorizer { ControlAuthorizer(group: nil) }

    /// A control group given by number, with no group or passwd file: its members are the users whose primary
    /// group it is.
    static func primaryGroup(_ gid: UInt32) -> ControlAuthorizer {
        var authorizer = ControlAuthorizer(group: "\(gid)")
        authorizer.groupFile = "/nonexistent/group"
        authorizer.passwdFile = "/nonexistent/passwd"
        return authorizer
    }
}
