/// The natural orientation orientd uses, and where it came from, for the log, `status` and `doctor`.
public struct PanelDetection: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// `natural-orientation = portrait|landscape`, or the option of the same name.
        case setting
        /// A trace's `# natural-orientation:` line.
        case trace
        /// The internal panel found through udev.
        case panel(connector: String, width: Int, height: Int, mounting: PanelMounting?)
        /// No internal panel: portrait was assumed, for this reason.
        case assumed(String)
    }

    public var natural: NaturalOrientation
    public var source: Source

    public init(natural: NaturalOrientation, source: Source) {
        self.natural = natural
        self.source = source
    }

    /// The natural orientation to use, in this order: the setting when it names one, a replayed trace's own
    /// line, then `panel` (asked only when neither decides: detecting it reads udev).
    public static func choose(
        _ setting: NaturalOrientationSetting, trace: NaturalOrientation?, panel: () -> PanelDetection
    ) -> PanelDetection {
        switch setting {
        case .portrait: return PanelDetection(natural: .portrait, source: .setting)
        case .landscape: return PanelDetection(natural: .landscape, source: .setting)
        case .auto: return trace.map { PanelDetection(natural: $0, source: .trace) } ?? panel()
        }
    }

    /// The internal panel's natural orientation: the first connected eDP, LVDS or DSI connector with a preferred
    /// mode, its width and height swapped when the kernel says it is mounted a quarter turn. Portrait, said to be
    /// assumed, when there is none.
    public static func detect(connectors: [PanelConnector], kernelCommandLine: String?) -> PanelDetection {
        let panels = connectors.filter(\.isInternal).sorted { $0.name.localizedStandardLess($1.name) }
        guard !panels.isEmpty else {
            return PanelDetection(natural: .portrait, source: .assumed("no internal panel (eDP, LVDS or DSI connector) found"))
        }
        guard let panel = panels.first(where: { $0.isConnected && $0.preferredMode != nil }),
            let mode = panel.preferredMode
        else {
            let names = panels.map(\.name).joined(separator: ", ")
            return PanelDetection(natural: .portrait, source: .assumed("the internal connector \(names) has no connected panel with a mode"))
        }
        let mounting = kernelCommandLine.flatMap { PanelMounting.fromKernelCommandLine($0, connector: panel.connector) }
        let (width, height) = mounting?.isQuarterTurn == true ? (mode.height, mode.width) : (mode.width, mode.height)
        return PanelDetection(
            natural: NaturalOrientation(width: width, height: height),
            source: .panel(connector: panel.connector, width: mode.width, height: mode.height, mounting: mounting))
    }

    /// One line: `landscape (panel eDP-1, 1920x1080)`, `portrait (assumed: no internal panel ...)`.
    public var description: String { "\(natural.rawValue) (\(sourceDescription))" }

    /// Where it came from: `panel eDP-1, 1920x1080`, `set by natural-orientation`, `assumed: ...`.
    public var sourceDescription: String {
        switch source {
        case .setting: "set by natural-orientation"
        case .trace: "from the trace"
        case .panel(let connector, let width, let height, let mounting):
            "panel \(connector), \(width)x\(height)\(mounting.map { ", mounted \($0.rawValue)" } ?? "")"
        case .assumed(let reason): "assumed: \(reason)"
        }
    }

    /// Until something says otherwise (a publisher's default): portrait, as every panel was named before.
    public static let portraitUntilTold = PanelDetection(natural: .portrait, source: .assumed("not detected yet"))
}
