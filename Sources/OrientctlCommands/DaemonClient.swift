import NIOCore
import NIOPosix
import OrientProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A connection to orientd: requests out, replies and events in, one JSON line each.
struct DaemonClient {
    private var inbound: NIOAsyncChannelInboundStream<[UInt8]>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var nextID = 1

    /// Connects to the daemon at `path`, runs `body`, and closes the connection.
    static func withConnection<T: Sendable>(
        path: String, _ body: (inout DaemonClient) async throws -> T
    ) async throws -> T {
        let channel: NIOAsyncChannel<[UInt8], ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(LineFrameDecoder(maximumLength: 1 << 20)))
                        return try NIOAsyncChannel<[UInt8], ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError {
            if error.errnoCode == EACCES {
                throw ClientError(message: "permission denied on \(path)", status: .init(77))
            }
            throw ClientError.notRunning(path, String(cString: strerror(error.errnoCode)))
        } catch {
            throw ClientError.notRunning(path, "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            var client = DaemonClient(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&client)
        }
    }

    /// Sends a request and returns its reply, skipping events that cross it.
    mutating func request(_ operation: Request.Operation) async throws -> ServerMessage {
        try await requestRaw(operation).message
    }

    /// Like ``request(_:)``, also returning the reply's text as the daemon sent it.
    mutating func requestRaw(_ operation: Request.Operation) async throws -> (text: String, message: ServerMessage) {
        let id = RequestID.number(Double(nextID))
        nextID += 1
        try await outbound.write(ByteBuffer(string: try JSONLineEncoder.line(Request(id: id, operation))))
        while let (text, message) = try await nextLine() {
            if case .error(let error) = message, error.id == nil || error.id == id { throw ClientError.refused(error) }
            guard message.event == nil, message.id == id else { continue }
            return (text, message)
        }
        throw ClientError.protocolViolation("the daemon closed the connection")
    }

    /// The next line: its text as the daemon sent it, for `--json` output, and what it says.
    mutating func nextLine() async throws -> (text: String, message: ServerMessage)? {
        guard let line = try await inbound.next() else { return nil }
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(line)
        } catch {
            throw ClientError.protocolViolation(String(decoding: line, as: UTF8.self))
        }
        return (String(decoding: line, as: UTF8.self), message)
    }
}
