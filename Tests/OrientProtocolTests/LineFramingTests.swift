import NIOCore
import NIOEmbedded
import OrientProtocol
import Testing

@Suite("Line framing")
struct LineFramingTests {
    @Test("A 64 KiB line trickled in one byte at a time is searched once, not once per byte")
    func trickledLineIsScannedOnce() {
        var scanner = LineScanner()
        var pending: [UInt8] = []
        let length = 64 * 1024
        for _ in 0..<length {
            pending.append(UInt8(ascii: "a"))
            #expect(scanner.lineLength(in: pending) == nil)
        }
        pending.append(UInt8(ascii: "\n"))
        #expect(scanner.lineLength(in: pending) == length)
        #expect(scanner.bytesExamined == length + 1, "a rescan from the start each time would be about 2^31")
    }

    @Test("After a line is taken, the next is searched from the front again")
    func nextLine() {
        var scanner = LineScanner()
        var pending = Array("ab".utf8)
        #expect(scanner.lineLength(in: pending) == nil)
        pending += Array("c\nde\nf".utf8)
        #expect(scanner.lineLength(in: pending) == 3)
        pending.removeFirst(4)
        scanner.lineTaken()
        #expect(scanner.lineLength(in: pending) == 2)
        #expect(scanner.bytesExamined == 2 + 2 + 3)
    }

    @Test("The decoder: lines split across reads, CR LF, and a pending line over the limit")
    func decoder() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumLength: 16)))
        for piece in ["{\"op\"", ":\"get\"}\r\n{\"op\":", "\"status\"}\nlast"] {
            try channel.writeInbound(ByteBuffer(string: piece))
        }
        #expect(try channel.readInbound(as: [UInt8].self) == Array(#"{"op":"get"}"#.utf8))
        #expect(try channel.readInbound(as: [UInt8].self) == Array(#"{"op":"status"}"#.utf8))
        #expect(try channel.readInbound(as: [UInt8].self) == nil, "no newline yet")
        let long = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumLength: 16)))
        #expect(throws: LineFrameDecoder.LineTooLong.self) {
            for _ in 0..<4 { try long.writeInbound(ByteBuffer(string: "0123456789")) }
        }
    }

    @Test("A last line without its newline is delivered at the end of the stream")
    func lastLine() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumLength: 16)))
        try channel.writeInbound(ByteBuffer(string: "one\ntwo"))
        #expect(try channel.readInbound(as: [UInt8].self) == Array("one".utf8))
        channel.pipeline.fireChannelInactive()
        #expect(try channel.readInbound(as: [UInt8].self) == Array("two".utf8))
    }
}
