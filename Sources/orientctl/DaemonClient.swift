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

    /// Sends a request (given as JSON fields without `id`) and returns its reply, skipping events that cross it.
    mutating func request(_ fields: String) async throws -> ServerMessage {
        try await requestRaw(fields).message
    }

    /// Like ``request(_:)``, also returning the reply's text as the daemon sent it.
    mutating func requestRaw(_ fields: String) async throws -> (text: String, message: ServerMessage) {
        let id = nextID
        nextID += 1
        let line = "{\"id\":\(id)" + (fields.isEmpty ? "" : "," + fields) + "}\n"
        try await outbound.write(ByteBuffer(string: line))
        while let (text, message) = try await nextLine() {
            guard message.event == nil else { continue }
            if let error = message.error, message.id == nil || message.id == .number(Double(id)) {
                throw ClientError.refused(error)
            }
            guard message.id == .number(Double(id)) else { continue }
            return (text, message)
        }
        throw ClientError.protocolViolation("the daemon closed the connection")
    }

    /// The raw text of the next line, for `--json` output.
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
