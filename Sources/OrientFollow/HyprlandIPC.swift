import FoundationEssentials

/// Hyprland's request socket (wiki.hypr.land/IPC), `.socket.sock`: one request per connection; Hyprland answers and
/// closes.
public final class HyprlandClient: CompositorClient, @unchecked Sendable {
    public let kind = CompositorKind.hyprland
    public let socketPath: String
    /// Asked once per connection: Hyprland chooses its configuration at start, so only a restart changes it.
    public private(set) var provider = HyprlandConfigProvider.hyprlang
    private var monitors: [HyprlandRequest.Monitor] = []

    /// The event socket beside the request socket: Hyprland closes it when it exits, which is how `follow`
    /// notices a restart without asking anything.
    private let events: UnixStream

    public init(path: String) throws(FollowError) {
        socketPath = path
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        events = try UnixStream(path: folder + "/.socket2.sock", timeout: 0)
        provider = try HyprlandConfigProvider.fromStatus(
            String(decoding: try exchange(HyprlandConfigProvider.statusRequest), as: UTF8.self))
        monitors = try listMonitors()
    }

    public var dialect: String? { provider.summary }

    /// Reads the events (`NAME>>DATA` lines, not needed here) until Hyprland closes the socket.
    public func waitUntilGone() {
        events.discardUntilClosed()
    }

    public func outputNames() throws(FollowError) -> [String] {
        monitors = try listMonitors()
        return monitors.map(\.name)
    }

    public func requests(for action: FollowAction, output: String) throws(FollowError) -> [String] {
        guard let monitor = monitors.first(where: { $0.name == output }) else {
            throw FollowError("Hyprland lists no monitor \(output)", retry: true)
        }
        return try HyprlandRequest.requests(for: action, monitor: monitor, provider: provider)
    }

    public func send(_ request: String) throws(FollowError) {
        let reply = String(decoding: try exchange(request), as: UTF8.self).split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        guard reply == "ok" else { throw FollowError("Hyprland refused \"\(request)\": \(reply)") }
    }

    private func listMonitors() throws(FollowError) -> [HyprlandRequest.Monitor] {
        let reply = try exchange(HyprlandRequest.monitors)
        do {
            return try JSONDecoder().decode([HyprlandRequest.Monitor].self, from: Data(reply))
        } catch {
            throw FollowError(
                "Hyprland: unexpected reply to j/monitors: \(String(decoding: reply.prefix(200), as: UTF8.self))")
        }
    }

    private func exchange(_ request: String) throws(FollowError) -> [UInt8] {
        let stream = try UnixStream(path: socketPath)
        defer { stream.close() }
        try stream.write(Array(request.utf8))
        stream.finishWriting()
        return try stream.readToEnd()
    }
}
