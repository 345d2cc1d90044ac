/// Which output `follow` turns.
public enum OutputChoice {
    /// The connector types of built-in panels (DRM names): embedded DisplayPort, LVDS and MIPI DSI.
    static let internalPrefixes = ["eDP-", "LVDS-", "DSI-"]

    /// `requested` when the compositor lists it; else the only built-in panel; else the only output.
    public static func choose(from names: [String], requested: String?) throws(FollowError) -> String {
        if let requested {
            guard names.contains(requested) else {
                throw FollowError(
                    "output \(requested) not found; the compositor lists: \(listed(names))", retry: true)
            }
            return requested
        }
        let panels = names.filter { name in internalPrefixes.contains { name.hasPrefix($0) } }
        if panels.count == 1 { return panels[0] }
        if panels.count > 1 {
            throw FollowError("several built-in panels (\(listed(panels))); choose one with --output")
        }
        if names.count == 1 { return names[0] }
        if names.isEmpty { throw FollowError("the compositor lists no output", retry: true) }
        throw FollowError("no built-in panel (eDP, LVDS or DSI) among \(listed(names)); choose one with --output")
    }

    private static func listed(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
