import FoundationEssentials

/// Which of Hyprland's configuration managers is running, which decides how `follow` spells its changes.
///
/// Hyprland 0.55 added a Lua configuration beside hyprlang's; it picks one at start (Lua when `hyprland.lua`
/// exists). Each refuses the other's request: with hyprlang, `eval` answers "eval is only supported with the lua
/// config manager"; with Lua, `keyword` answers "keyword can't work with non-legacy parsers. Use eval." A version
/// number cannot tell them apart, so `follow` asks Hyprland which one it runs.
public enum HyprlandConfigProvider: String, Sendable, Equatable {
    /// `keyword NAME VALUE`: one line of `hyprland.conf`.
    case hyprlang
    /// `eval CODE`: Lua calling the `hl.*` functions of `hyprland.lua`.
    case lua

    /// `status` (Hyprland 0.55 and later) reports `configProvider` and `backend`; `j/` asks for JSON.
    public static let statusRequest = "j/status"

    /// Hyprland's answer to a request it does not have.
    static let unknownRequest = "unknown request"

    private struct Status: Decodable { let configProvider: String? }

    /// The provider from the reply to ``statusRequest``.
    ///
    /// `status` came with the Lua configuration (Hyprland 0.55), so a Hyprland that does not know it, or that
    /// leaves the field out, has no Lua and is spoken to in hyprlang.
    public static func fromStatus(_ reply: String) throws(FollowError) -> HyprlandConfigProvider {
        if reply.hasPrefix(unknownRequest) { return .hyprlang }
        let status: Status
        do {
            status = try JSONDecoder().decode(Status.self, from: Data(reply.utf8))
        } catch {
            throw FollowError("Hyprland: unexpected reply to \(statusRequest): \(reply.prefix(200))")
        }
        guard let name = status.configProvider else { return .hyprlang }
        guard let provider = HyprlandConfigProvider(rawValue: name) else {
            throw FollowError(
                "Hyprland's \(statusRequest) reports configProvider \"\(name)\"; follow knows \"hyprlang\" and \"lua\"")
        }
        return provider
    }

    /// For the line `follow` prints when it connects.
    public var summary: String {
        switch self {
        case .hyprlang: "hyprlang configuration: keyword requests"
        case .lua: "Lua configuration: eval requests"
        }
    }
}
