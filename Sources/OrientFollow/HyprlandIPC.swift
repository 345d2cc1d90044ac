import FoundationEssentials

/// Hyprland's request socket (wiki.hypr.land/IPC): one request per connection, written as
/// `[flags]/command args`; Hyprland answers and closes. `j/` asks for JSON. Changes go through `eval`, which runs
/// Lua in the configuration's terms (Hyprland 0.55 and later: `hl.monitor`, `hl.config`, `hl.device`) and answers
/// `ok` or the error.
public enum HyprlandRequest {
    public static let monitors = "j/monitors"

    /// A monitor as `j/monitors` lists it: the rule that sets its transform repeats its mode, place and scale.
    public struct Monitor: Decodable, Sendable, Equatable {
        public let name: String
        public let width: Int
        public let height: Int
        public let refreshRate: Double
        public let x: Int
        public let y: Int
        public let scale: Double
        public let transform: Int?

        public init(
            name: String, width: Int, height: Int, refreshRate: Double, x: Int, y: Int, scale: Double,
            transform: Int? = nil
        ) {
            (self.name, self.width, self.height, self.refreshRate) = (name, width, height, refreshRate)
            (self.x, self.y, self.scale, self.transform) = (x, y, scale, transform)
        }
    }

    /// The wiki's "Rotating" list numbers the four turns 0-3 in 90° steps, the wl_output transform enum, whose
    /// protocol text counts them counter-clockwise (as iio-hyprland sends them), so rotation ÷ 90.
    public static func transform(rotation: Int) -> Int { (rotation % 360) / 90 }

    public static func requests(for action: FollowAction, monitor: Monitor) -> [String] {
        let name = lua(monitor.name)
        switch action {
        case .transform(let rotation):
            let mode = lua("\(monitor.width)x\(monitor.height)@\(number(monitor.refreshRate))")
            let position = lua("\(monitor.x)x\(monitor.y)")
            return [
                "/eval hl.monitor({ output = \(name), mode = \(mode), position = \(position), "
                    + "scale = \(number(monitor.scale)), transform = \(transform(rotation: rotation)) })"
            ]
        case .mapTouch(let rotation):
            // Touch input is turned by its own setting (wiki: Variables, input.touchdevice.transform).
            return [inputSetting("touchdevice", rotation: rotation, output: name)]
        case .mapPen(let rotation):
            return [inputSetting("tablet", rotation: rotation, output: name)]
        case .inputs(let devices, let enabled):
            return devices.map { "/eval hl.device({ name = \(lua($0)), enabled = \(enabled) })" }
        }
    }

    private static func inputSetting(_ section: String, rotation: Int, output: String) -> String {
        let settings = "transform = \(transform(rotation: rotation)), output = \(output)"
        return "/eval hl.config({ input = { \(section) = { \(settings) } } })"
    }

    /// A Lua string literal.
    static func lua(_ text: String) -> String { doubleQuoted(text) }

    /// `60` rather than `60.0`; other values as Swift prints them (shortest exact form).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// Hyprland's `.socket.sock`, one connection per request.
public final class HyprlandClient: CompositorClient, @unchecked Sendable {
    public let kind = CompositorKind.hyprland
    public let socketPath: String
    private var monitors: [HyprlandRequest.Monitor] = []

    /// The event socket beside the request socket: Hyprland closes it when it exits, which is how `follow`
    /// notices a restart without asking anything.
    private let events: UnixStream

    public init(path: String) throws(FollowError) {
        socketPath = path
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        events = try UnixStream(path: folder + "/.socket2.sock", timeout: 0)
        monitors = try listMonitors()
    }

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
        return HyprlandRequest.requests(for: action, monitor: monitor)
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
