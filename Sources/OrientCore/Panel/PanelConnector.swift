/// A DRM connector as sysfs shows it (`/sys/class/drm/card0-eDP-1`): its name, whether a display is connected,
/// and its modes, the preferred one first.
public struct PanelConnector: Sendable, Equatable {
    /// The sysfs name, `card0-eDP-1`.
    public var name: String
    /// `status`: `connected`, `disconnected` or `unknown`.
    public var status: String
    /// `modes`, one `WxH` a line, preferred first.
    public var modes: String

    public init(name: String, status: String, modes: String) {
        self.name = name
        self.status = status
        self.modes = modes
    }

    /// The connector without its card, as the kernel's `video=` argument and compositors name it: `eDP-1`.
    public var connector: String {
        guard name.hasPrefix("card"), let dash = name.firstIndex(of: "-") else { return name }
        return String(name[name.index(after: dash)...])
    }

    /// An internal panel's connector: embedded DisplayPort, LVDS or DSI.
    public var isInternal: Bool {
        ["eDP-", "LVDS-", "DSI-"].contains { connector.hasPrefix($0) }
    }

    public var isConnected: Bool { status.trimmingWhitespace() == "connected" }

    /// The preferred mode (the first line of `modes`), when it reads `WxH` (an `i` for interlaced may follow).
    public var preferredMode: (width: Int, height: Int)? {
        guard let first = modes.split(whereSeparator: \.isNewline).first else { return nil }
        let parts = first.trimmingWhitespace().split(separator: "x", maxSplits: 1)
        guard parts.count == 2, let width = Int(parts[0]),
            let height = Int(parts[1].prefix { $0.isNumber }), width > 0, height > 0
        else { return nil }
        return (width, height)
    }
}

/// How the kernel says a panel is mounted in its case (drm's "panel orientation"): a portrait panel turned a
/// quarter in a landscape case shows its modes taller than wide, and desktops turn its picture first.
public enum PanelMounting: String, Sendable, CaseIterable {
    case normal
    case upsideDown = "upside_down"
    case leftSideUp = "left_side_up"
    case rightSideUp = "right_side_up"

    /// Mounted a quarter turn: the picture's width is the mode's height.
    public var isQuarterTurn: Bool { self == .leftSideUp || self == .rightSideUp }

    /// The mounting the kernel command line gives `connector` (`video=eDP-1:panel_orientation=left_side_up`,
    /// options after a mode: `video=eDP-1:800x1280,panel_orientation=right_side_up`), or nil.
    public static func fromKernelCommandLine(_ commandLine: String, connector: String) -> PanelMounting? {
        var result: PanelMounting?
        for argument in commandLine.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            guard argument.hasPrefix("video="), let colon = argument.firstIndex(of: ":") else { continue }
            let name = argument[argument.index(argument.startIndex, offsetBy: 6)..<colon]
            guard name == connector else { continue }
            for option in argument[argument.index(after: colon)...].split(separator: ",") {
                let pair = option.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == "panel_orientation", let mounting = PanelMounting(rawValue: String(pair[1])) {
                    result = mounting  // the last one wins, as in the kernel
                }
            }
        }
        return result
    }
}
