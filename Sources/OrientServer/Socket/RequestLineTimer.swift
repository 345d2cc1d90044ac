import NIOCore

/// Gives up on a client that starts a request line and does not finish it.
///
/// Without this, a client that sends half a line and stalls holds its connection, and a place under
/// max-clients, for good; enough of them lock every other client out. A line must end within the timeout of
/// the read that left it unfinished; any newline is progress and starts the count again, so a client that
/// pipelines requests in odd-sized writes is never cut off. A connection with nothing unfinished, such as an
/// idle subscriber, has no deadline at all.
final class RequestLineTimer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Fired down the pipeline when the deadline passes; the connection handler answers it and closes.
    struct Expired: Error {
        let seconds: Double
    }

    private let timeout: () -> TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: @escaping () -> TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytesView
        if let last = bytes.last {
            if bytes.contains(UInt8(ascii: "\n")) { cancel() }
            if last != UInt8(ascii: "\n"), deadline == nil { start(context: context) }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    private func start(context: ChannelHandlerContext) {
        let amount = timeout()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: amount) { [weak self] in
            self?.deadline = nil
            context.fireErrorCaught(Expired(seconds: Double(amount.nanoseconds) / 1e9))
        }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}
