import NIOCore
import NIOEmbedded
import OrientCore
import OrientProtocol

/// A small limit, so that the fuzzer reaches it often; the logic does not depend on the size.
private let maximumLength = 200

/// Feeds the input to LineFrameDecoder, whole and in small chunks, then decodes each line as a request. Checks:
/// - the framing matches a plain split at newlines (one CR before a newline dropped, a last unterminated line
///   kept), with the line-too-long error exactly when a line is over the limit, however the bytes arrive;
/// - a decoded request, written back as JSON, decodes to the same request (masks go through their names);
/// - a bad-field error names the field in quotes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let expected = expectedFrames(bytes)
    let whole = frames(bytes, chunkSize: max(size, 1))
    let chunked = frames(bytes, chunkSize: 1 + size % 7)
    precondition(whole == expected, "framing the whole input: \(whole) expected \(expected)")
    precondition(chunked == expected, "framing in chunks of \(1 + size % 7): \(chunked) expected \(expected)")

    for line in expected.lines { check(line) }
    return 0
}

private struct Frames: Equatable, CustomStringConvertible {
    var lines: [[UInt8]] = []
    var tooLong = false
    var description: String { "\(lines.count) lines\(tooLong ? ", then too long" : "")" }
}

private func expectedFrames(_ bytes: [UInt8]) -> Frames {
    var result = Frames()
    var pieces = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let last = pieces.removeLast()  // After the last newline: an unterminated line, or nothing.
    for piece in pieces {
        if piece.count > maximumLength {
            result.tooLong = true
            return result
        }
        result.lines.append(Array(piece.last == UInt8(ascii: "\r") ? piece.dropLast() : piece))
    }
    if last.count > maximumLength {
        result.tooLong = true
    } else if !last.isEmpty {
        result.lines.append(Array(last))
    }
    return result
}

private func frames(_ bytes: [UInt8], chunkSize: Int) -> Frames {
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumLength: maximumLength)))
    var result = Frames()
    func drain() {
        while let line = try? channel.readInbound(as: [UInt8].self) { result.lines.append(line) }
    }
    do {
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try channel.writeInbound(channel.allocator.buffer(bytes: bytes[start..<end]))
            drain()
            start = end
        }
        _ = try channel.finish()
        drain()
    } catch is LineFrameDecoder.LineTooLong {
        drain()
        result.tooLong = true
        _ = try? channel.finish()
    } catch {
        fatalError("unexpected error \(error)")
    }
    return result
}

private let fields = ["op", "id", "mask", "preferred", "changes", "autorotate"]

private func check(_ line: [UInt8]) {
    let request: Request
    do {
        request = try RequestDecoder.decode(line)
    } catch {
        if error.code == .badField {
            precondition(fields.contains { error.message.contains("\"\($0)\"") }, "bad-field error names no field: \(error.message)")
        }
        return
    }
    let written = wire(request)
    guard let again = try? RequestDecoder.decode(Array(written.utf8)) else {
        fatalError("\(request) written as \(written) does not decode")
    }
    precondition(again == request, "\(request) written as \(written) decodes as \(again)")
}

/// The request as a client would send it: the model's own encoding.
private func wire(_ request: Request) -> String {
    try! JSONLineEncoder.line(request)
}
