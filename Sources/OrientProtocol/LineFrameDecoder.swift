import NIOCore

/// Splits a byte stream into lines (without the newline, or a carriage return before it), refusing a line
/// longer than `maximumLength`. Used by the daemon for requests and by clients for replies and events.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = [UInt8]

    /// A line longer than the limit arrived; the connection should be closed.
    public struct LineTooLong: Error {}

    public let maximumLength: Int
    private var scanner = LineScanner()

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = scanner.lineLength(in: buffer.readableBytesView) else {
            if buffer.readableBytes > maximumLength { throw LineTooLong() }
            return .needMoreData
        }
        if length > maximumLength { throw LineTooLong() }
        var line = buffer.readBytes(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        scanner.lineTaken()
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A last line without its newline still counts.
        if buffer.readableBytes > 0, let line = buffer.readBytes(length: buffer.readableBytes) {
            context.fireChannelRead(wrapInboundOut(line))
        }
        return .needMoreData
    }
}
