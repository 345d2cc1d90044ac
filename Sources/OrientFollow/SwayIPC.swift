import FoundationEssentials

/// sway's IPC (the i3 protocol, sway-ipc(7)): each message is the magic string `i3-ipc`, the payload's length
/// and the message type as 32-bit integers in native byte order, then the payload; replies carry the same type.
public enum SwayMessage {
    public static let magic = Array("i3-ipc".utf8)
    public static let runCommand: UInt32 = 0
    public static let getOutputs: UInt32 = 3
    public static let headerLength = 14

    public static func encode(type: UInt32, payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        return magic + bytes(of: UInt32(body.count)) + bytes(of: type) + body
    }

    /// The payload length and type from a reply's header.
    public static func decodeHeader(_ header: [UInt8]) throws(FollowError) -> (length: Int, type: UInt32) {
        guard header.count == headerLength, Array(header[0..<6]) == magic else {
            throw FollowError("sway: a reply without the i3-ipc header", retry: true)
        }
        return (Int(integer(header[6..<10])), integer(header[10..<14]))
    }

    private static func bytes(of value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    private static func integer(_ slice: ArraySlice<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: slice) }
        return value
    }

    /// The command text for each action (sway-input(5), sway-output(5)).
    public static func commands(for action: FollowAction, output: String) -> [String] {
        switch action {
        case .transform(let rotation):
            ["output \(quoted(output)) transform \(transform(rotation: rotation))"]
        case .mapTouch:
            ["input type:touch map_to_output \(quoted(output))"]
        case .mapPen:
            ["input type:tablet_tool map_to_output \(quoted(output))"]
        case .inputs(let devices, let enabled):
            devices.map { "input \(quoted($0)) events \(enabled ? "enabled" : "disabled")" }
        }
    }

    /// sway-output(5): "The rotation is performed clockwise", so content turned `rotation` degrees
    /// counter-clockwise is sway's 360 − rotation.
    public static func transform(rotation: Int) -> String {
        let clockwise = (360 - rotation % 360) % 360
        return clockwise == 0 ? "normal" : String(clockwise)
    }

    static func quoted(_ text: String) -> String { doubleQuoted(text) }
}

/// A connection to sway's IPC socket.
public final class SwayClient: CompositorClient, @unchecked Sendable {
    public let kind = CompositorKind.sway
    public let socketPath: String
    private let stream: UnixStream

    public init(path: String) throws(FollowError) {
        socketPath = path
        stream = try UnixStream(path: path)
    }

    private struct Output: Decodable { let name: String }
    private struct CommandResult: Decodable {
        let success: Bool
        let error: String?
    }

    public func outputNames() throws(FollowError) -> [String] {
        let reply = try exchange(type: SwayMessage.getOutputs, payload: "")
        return try decode([Output].self, reply).map(\.name)
    }

    public func requests(for action: FollowAction, output: String) -> [String] {
        SwayMessage.commands(for: action, output: output)
    }

    public func send(_ request: String) throws(FollowError) {
        let reply = try exchange(type: SwayMessage.runCommand, payload: request)
        for result in try decode([CommandResult].self, reply) where !result.success {
            throw FollowError("sway refused \"\(request)\": \(result.error ?? "no reason given")")
        }
    }

    public func waitUntilGone() { stream.waitUntilPeerCloses() }

    private func exchange(type: UInt32, payload: String) throws(FollowError) -> [UInt8] {
        try stream.write(SwayMessage.encode(type: type, payload: payload))
        let (length, replyType) = try SwayMessage.decodeHeader(try stream.read(count: SwayMessage.headerLength))
        let body = try stream.read(count: length)
        guard replyType == type else { throw FollowError("sway: reply of type \(replyType) to \(type)", retry: true) }
        return body
    }

    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(FollowError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw FollowError("sway: unexpected reply: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
    }
}
