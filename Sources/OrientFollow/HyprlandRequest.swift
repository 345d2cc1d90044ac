/// Hyprland's requests (wiki.hypr.land/IPC), written `[flags]/command args`: `j/` asks for JSON. Each change is
/// spelled in the running configuration's terms (``HyprlandConfigProvider``): `keyword` sets one hyprlang
/// variable or rule; `eval` runs Lua calling `hl.monitor`, `hl.config` and `hl.device`. Both answer `ok` or the
/// error.
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

        var mode: String { "\(width)x\(height)@\(number(refreshRate))" }
        var position: String { "\(x)x\(y)" }
    }

    /// The wiki's "Rotating" list numbers the four turns 0-3 in 90° steps, the wl_output transform enum, whose
    /// protocol text counts them counter-clockwise (as iio-hyprland sends them), so rotation ÷ 90.
    public static func transform(rotation: Int) -> Int { (rotation % 360) / 90 }

    public static func requests(
        for action: FollowAction, monitor: Monitor, provider: HyprlandConfigProvider
    ) throws(FollowError) -> [String] {
        switch provider {
        case .hyprlang: try keywords(for: action, monitor: monitor)
        case .lua: evals(for: action, monitor: monitor)
        }
    }

    /// hyprlang: a `monitor` rule (`name,mode,position,scale,transform,N`), the touch and tablet variables, and a
    /// device's `enabled` as `device[NAME]:enabled`. The variable's name ends at the first space, so a device
    /// name cannot hold one (Hyprland's own names never do: `hyprctl devices`).
    static func keywords(for action: FollowAction, monitor: Monitor) throws(FollowError) -> [String] {
        switch action {
        case .transform(let rotation):
            let rule = [monitor.name, monitor.mode, monitor.position, number(monitor.scale)]
            return ["/keyword monitor " + rule.joined(separator: ",") + ",transform,\(transform(rotation: rotation))"]
        case .mapTouch(let rotation):
            return inputKeywords("touchdevice", rotation: rotation, output: monitor.name)
        case .mapPen(let rotation):
            return inputKeywords("tablet", rotation: rotation, output: monitor.name)
        case .inputs(let devices, let enabled):
            var requests: [String] = []
            for device in devices {
                guard !device.contains(where: { $0.isWhitespace || $0 == "]" }) else {
                    throw FollowError(
                        "Hyprland device \"\(device)\": a name with a space or ] cannot be set through keyword; "
                            + "hyprctl devices lists the names")
                }
                requests.append("/keyword device[\(device)]:enabled \(enabled)")
            }
            return requests
        }
    }

    /// Touch input and the pen are turned by settings of their own (wiki: Variables, `input:touchdevice`,
    /// `input:tablet`), not with the monitor.
    private static func inputKeywords(_ section: String, rotation: Int, output: String) -> [String] {
        [
            "/keyword input:\(section):transform \(transform(rotation: rotation))",
            "/keyword input:\(section):output \(output)",
        ]
    }

    /// Lua: the same rule and settings as tables for `hl.monitor`, `hl.config` and `hl.device`.
    static func evals(for action: FollowAction, monitor: Monitor) -> [String] {
        let name = lua(monitor.name)
        switch action {
        case .transform(let rotation):
            let mode = "mode = \(lua(monitor.mode)), position = \(lua(monitor.position))"
            let turn = "scale = \(number(monitor.scale)), transform = \(transform(rotation: rotation))"
            return ["/eval hl.monitor({ output = \(name), \(mode), \(turn) })"]
        case .mapTouch(let rotation):
            return [inputEval("touchdevice", rotation: rotation, output: name)]
        case .mapPen(let rotation):
            return [inputEval("tablet", rotation: rotation, output: name)]
        case .inputs(let devices, let enabled):
            return devices.map { "/eval hl.device({ name = \(lua($0)), enabled = \(enabled) })" }
        }
    }

    private static func inputEval(_ section: String, rotation: Int, output: String) -> String {
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
