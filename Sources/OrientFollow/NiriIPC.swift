import FoundationEssentials
import OrientProtocol

/// niri's IPC (niri-ipc's crate documentation): a JSON request on one line, a JSON reply on one line, as serde
/// spells niri's Rust types: `"Outputs"`, `{"Output":{"output":…,"action":{"Transform":{"transform":"90"}}}}`;
/// replies are `{"Ok":…}` or `{"Err":"message"}`.
public enum NiriRequest {
    public static let outputs = "\"Outputs\""

    /// niri's Transform "goes counter-clockwise" (niri-ipc; the wiki's Outputs page: "Rotate the output
    /// counter-clockwise"), so it is the rotation itself. serde renames only the numbered variants.
    public static func transform(rotation: Int) -> String {
        let turn = rotation % 360
        return turn == 0 ? "Normal" : String(turn)
    }

    public static func setTransform(output: String, rotation: Int) -> String {
        "{\"Output\":{\"output\":\(JSONLineEncoder.quoted(output)),\"action\":{\"Transform\":{\"transform\":"
            + "\(JSONLineEncoder.quoted(transform(rotation: rotation)))}}}}"
    }

    /// niri maps touchscreens and tablets to an output in its configuration only (`map-to-output`), and turns
    /// mapped input with the output; its IPC has no request for either, nor for turning a device off.
    public static func requests(for action: FollowAction, output: String) throws(FollowError) -> [String] {
        switch action {
        case .transform(let rotation): [setTransform(output: output, rotation: rotation)]
        case .mapTouch, .mapPen: []
        case .inputs:
            throw FollowError(
                "niri's IPC cannot turn input devices off; use `off` in the device's section of niri's configuration")
        }
    }
}

/// A connection to `$NIRI_SOCKET`, kept open: niri answers each request line in order.
public final class NiriClient: CompositorClient, @unchecked Sendable {
    public let kind = CompositorKind.niri
    public let socketPath: String
    private let stream: UnixStream

    public init(path: String) throws(FollowError) {
        socketPath = path
        stream = try UnixStream(path: path)
    }

    /// `Ok` holds either a bare variant name (`"Handled"`) or an object with one member.
    private enum Reply: Decodable {
        case ok(OutputsReply?)
        case error(String)

        enum Keys: String, CodingKey { case Ok, Err }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            if let message = try c.decodeIfPresent(String.self, forKey: .Err) {
                self = .error(message)
            } else if (try? c.decode(String.self, forKey: .Ok)) != nil {
                self = .ok(nil)
            } else {
                self = .ok(try c.decode(OutputsReply.self, forKey: .Ok))
            }
        }
    }

    private struct OutputsReply: Decodable {
        let Outputs: [String: OutputInfo]?
        let OutputConfigChanged: String?
    }

    private struct OutputInfo: Decodable { let name: String }

    public func outputNames() throws(FollowError) -> [String] {
        guard case .ok(let response) = try exchange(NiriRequest.outputs), let outputs = response?.Outputs else {
            throw FollowError("niri: no outputs in its reply to Outputs")
        }
        return outputs.values.map(\.name).sorted()
    }

    public func requests(for action: FollowAction, output: String) throws(FollowError) -> [String] {
        try NiriRequest.requests(for: action, output: output)
    }

    public func send(_ request: String) throws(FollowError) {
        let reply = try exchange(request)
        if case .error(let message) = reply { throw FollowError("niri refused \(request): \(message)") }
        if case .ok(let response) = reply, response?.OutputConfigChanged == "OutputWasMissing" {
            throw FollowError("niri: the output went away", retry: true)
        }
    }

    public func waitUntilGone() { stream.waitUntilPeerCloses() }

    private func exchange(_ request: String) throws(FollowError) -> Reply {
        try stream.write(Array((request + "\n").utf8))
        let line = try stream.readLine()
        do {
            return try JSONDecoder().decode(Reply.self, from: Data(line))
        } catch {
            throw FollowError("niri: unexpected reply: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
    }
}
