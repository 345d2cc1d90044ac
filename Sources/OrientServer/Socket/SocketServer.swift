import Logging
import NIOCore
import NIOPosix
import OrientProtocol
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The Unix socket clients connect to, as a service: listening until graceful shutdown, then closing every
/// connection and removing the socket file it created.
public struct SocketServer: Service {
    /// A longer request line closes the connection.
    public static let maximumLineLength = 64 * 1024

    public enum Listener: Sendable {
        /// Bind this path (removing a stale socket file left by a crash), with these permissions.
        case path(String, mode: UInt16)
        /// A listening socket inherited from systemd (socket activation); it is never unlinked.
        case inherited(descriptor: CInt)
    }

    private let eventLoop: EventLoop
    private let publisher: NIOLoopBound<Publisher>
    private let controls: NIOLoopBound<ControlQueue>
    private let policy: NIOLoopBound<ConnectionPolicy>
    private let listener: Listener
    private let logger: Logger
    private let onListening: @Sendable () -> Void

    public init(
        eventLoop: EventLoop, publisher: NIOLoopBound<Publisher>, controls: NIOLoopBound<ControlQueue>,
        policy: NIOLoopBound<ConnectionPolicy>, listener: Listener, logger: Logger,
        onListening: @escaping @Sendable () -> Void
    ) {
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.controls = controls
        self.policy = policy
        self.listener = listener
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let registry = try await eventLoop.submit { NIOLoopBound(ConnectionRegistry(), eventLoop: self.eventLoop) }.get()
        let channel = try await bind(registry: registry)
        logger.info("listening on \(describe(listener))")
        onListening()
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await channel.closeFuture.get()
            } onGracefulShutdown: {
                channel.close(promise: nil)
            }
        } onCancel: {
            channel.close(promise: nil)
        }
        try await eventLoop.submit { registry.value.closeAll() }.get()
        if case .path(let path, _) = listener { unlink(path) }
        logger.info("socket closed")
    }

    private func bind(registry: NIOLoopBound<ConnectionRegistry>) async throws -> Channel {
        let publisher = self.publisher
        let controls = self.controls
        let policy = self.policy
        let logger = self.logger
        let bootstrap = ServerBootstrap(group: eventLoop, childGroup: eventLoop)
            // A full backlog fails a Unix socket's non-blocking connect at once with EAGAIN (there is no retry as
            // with TCP), so a burst of clients must fit: the kernel caps this at net.core.somaxconn (4096 here).
            .serverChannelOption(.backlog, value: 4096)
            // A subscriber that does not read stops being writable after a few dozen events; from then on it is
            // owed only the newest state (see Subscriber).
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 4096, high: 16384))
            // Requests are short lines: each connection's read buffer starts at 256 bytes, not NIO's 2048, and grows
            // for a client that sends more (0.2 MB less heap with 100 subscribers, BENCHMARKS.md).
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configurePipeline(
                        channel, publisher: publisher.value, controls: controls.value, policy: policy.value,
                        connections: registry.value, logger: logger)
                }
            }
        switch listener {
        case .inherited(let descriptor):
            return try await bootstrap.withBoundSocket(descriptor).get()
        case .path(let path, let mode):
            try Self.prepare(path)
            let channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
            guard chmod(path, mode_t(mode)) == 0 else {
                let error = errno
                try await channel.close()
                throw ServerError("cannot set the permissions of \(path): \(String(cString: strerror(error)))")
            }
            return channel
        }
    }

    /// A new connection's handlers: the request-line timer, line framing, then the connection itself. The policy
    /// is read as each connection needs it (the client count when it opens, the timeout when a line starts, the
    /// authorizer at each control request), so a reload applies without touching the pipelines.
    static func configurePipeline(
        _ channel: Channel, publisher: Publisher, controls: ControlQueue, policy: ConnectionPolicy,
        connections: ConnectionRegistry, logger: Logger
    ) throws {
        let handler = ConnectionHandler(
            publisher: publisher, controls: controls, authorizer: { policy.authorizer },
            maximumClients: { policy.maximumClients }, connections: connections, logger: logger)
        try channel.pipeline.syncOperations.addHandler(RequestLineTimer(timeout: { policy.requestTimeout }))
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(LineFrameDecoder(maximumLength: maximumLineLength)))
        try channel.pipeline.syncOperations.addHandler(handler)
    }

    /// Creates the socket's folder, and removes a socket file nobody listens on (left by a crash). A live socket
    /// means another orientd is running: that is an error, not something to take over.
    static func prepare(_ path: String) throws {
        var folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if folder.isEmpty { folder = "." }
        var partial = ""
        for component in folder.split(separator: "/") {
            partial += (folder.hasPrefix("/") || !partial.isEmpty ? "/" : "") + component
            if mkdir(partial, 0o755) != 0, errno != EEXIST {
                throw ServerError("cannot create \(partial): \(String(cString: strerror(errno)))")
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError("\(path) exists and is not a socket; refusing to replace it")
        }
        if isListening(path) { throw ServerError("\(path) is in use: is another orientd running?") }
        unlink(path)
    }

    private static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    private func describe(_ listener: Listener) -> String {
        switch listener {
        case .path(let path, _): path
        case .inherited(let descriptor): "inherited socket (fd \(descriptor))"
        }
    }
}

/// A server failure with a message for the log.
public struct ServerError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
