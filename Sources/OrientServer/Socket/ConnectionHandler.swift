import Logging
import NIOCore
import OrientProtocol

#if canImport(Glibc)
import Glibc
#endif

/// One client connection: reads request lines, answers them, and is a ``SubscriberSink`` for events.
///
/// Errors never close the connection, except for abuse: a line over the limit, a line left unfinished, or one
/// client too many, gets an error line and then the connection is closed.
final class ConnectionHandler: ChannelInboundHandler, SubscriberSink {
    typealias InboundIn = [UInt8]
    typealias OutboundOut = ByteBuffer

    private let publisher: Publisher
    private let controls: ControlQueue
    private let authorizer: () -> ControlAuthorizer
    private let maximumClients: () -> Int
    private let connections: ConnectionRegistry
    private let logger: Logger
    private var context: ChannelHandlerContext?
    /// From SO_PEERCRED once active. Not private, so that tests over an EmbeddedChannel (no socket) can set it.
    var peer: PeerCredentials?
    private var closing = false

    init(
        publisher: Publisher, controls: ControlQueue, authorizer: @escaping () -> ControlAuthorizer,
        maximumClients: @escaping () -> Int, connections: ConnectionRegistry, logger: Logger
    ) {
        self.publisher = publisher
        self.controls = controls
        self.authorizer = authorizer
        self.maximumClients = maximumClients
        self.connections = connections
        self.logger = logger
    }

    // MARK: SubscriberSink

    var isWritable: Bool { context?.channel.isWritable ?? false }

    func send(_ line: String) {
        guard let context, !closing else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: line)), promise: nil)
    }

    // MARK: Channel events

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        guard connections.add(context.channel, limit: maximumClients()) else {
            logger.warning("refusing a connection: \(maximumClients()) clients already connected")
            fail(ProtocolError(.tooManyClients, "the daemon already serves \(maximumClients()) clients"), context: context)
            return
        }
        readPeerCredentials(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        publisher.disconnected(self)
        connections.remove(context.channel)
        self.context = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { publisher.writable(self) }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let line = unwrapInboundIn(data)
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }  // Blank lines are no requests.
        let reply: String?
        do {
            reply = answer(try RequestDecoder.decode(line))
        } catch {
            reply = ServerMessage.error(error).line
        }
        // A `get` waiting for the sensor is answered later, through `send`.
        if let reply { send(reply) }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is LineFrameDecoder.LineTooLong {
            fail(ProtocolError(.lineTooLong, "request line over \(SocketServer.maximumLineLength) bytes"), context: context)
        } else if let expired = error as? RequestLineTimer.Expired {
            logger.info("closing a connection whose request line was unfinished after \(expired.seconds) s")
            fail(ProtocolError(.requestTimeout, "request line unfinished after \(expired.seconds) s"), context: context)
        } else {
            logger.debug("connection error: \(error)")
            context.close(promise: nil)
        }
    }

    // MARK: Requests

    private func answer(_ request: Request) -> String? {
        switch request.operation {
        case .get(let settings, let readings): return publisher.get(settings, readings: readings, from: self, id: request.id)
        case .subscribe(let settings, let readings):
            return publisher.subscribe(self, settings: settings, readings: readings, id: request.id)
        case .unsubscribe:
            publisher.unsubscribe(self)
            return ServerMessage.done(id: request.id).line
        case .lock: return control(.locked(true), request)
        case .unlock: return control(.locked(false), request)
        case .setMask(let mask): return control(.mask(mask), request)
        case .status: return publisher.status(id: request.id)
        }
    }

    /// Queues a control request; its reply comes through `send` once it is checked and saved.
    private func control(_ change: ControlChange, _ request: Request) -> String? {
        let authorizer = self.authorizer()
        let peer = self.peer
        let logger = self.logger
        let operation = request.operation
        controls.submit(.init(change: change, id: request.id, sink: self) {
            if let peer, authorizer.allows(peer) { return true }
            logger.notice("denied \(operation) to \(peer.map { "uid \($0.uid)" } ?? "an unidentified peer")")
            return false
        })
        return nil
    }

    private func fail(_ error: ProtocolError, context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        let channel = context.channel
        let buffer = channel.allocator.buffer(string: ServerMessage.error(error).line)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func readPeerCredentials(_ channel: Channel) {
        guard let provider = channel as? SocketOptionProvider else { return }
        // PeerCredentials has struct ucred's layout (pid, uid, gid as 32-bit integers); Swift's Glibc module
        // hides `ucred` itself behind _GNU_SOURCE.
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        future.assumeIsolated().whenSuccess { [weak self] credentials in self?.peer = credentials }
    }
}

/// The open connections, so that the count can be limited and all can be closed at shutdown.
/// Used only on the server's event loop.
final class ConnectionRegistry {
    private var channels: [ObjectIdentifier: Channel] = [:]

    var count: Int { channels.count }

    func add(_ channel: Channel, limit: Int) -> Bool {
        guard channels.count < limit else { return false }
        channels[ObjectIdentifier(channel)] = channel
        return true
    }

    func remove(_ channel: Channel) {
        channels[ObjectIdentifier(channel)] = nil
    }

    func closeAll() {
        for channel in channels.values { channel.close(promise: nil) }
    }
}
