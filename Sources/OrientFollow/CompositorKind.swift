/// The compositors `follow` drives, each through its own IPC socket.
public enum CompositorKind: String, Sendable, CaseIterable {
    case sway
    case hyprland
    case niri

    /// The variable a session of this compositor exports for its clients.
    public var sessionVariable: String {
        switch self {
        case .sway: "SWAYSOCK"
        case .hyprland: "HYPRLAND_INSTANCE_SIGNATURE"
        case .niri: "NIRI_SOCKET"
        }
    }

    /// The compositor of the current session, from the variables each one sets.
    public static func detect(environment: [String: String]) throws(FollowError) -> CompositorKind {
        let found = allCases.filter { environment[$0.sessionVariable].map { !$0.isEmpty } ?? false }
        guard let first = found.first else {
            let names = allCases.map(\.sessionVariable).joined(separator: ", ")
            throw FollowError(
                "no sway, Hyprland or niri session found (none of \(names) is set); use --compositor to name one")
        }
        return first
    }
}

/// A failure `follow` reports to the user; `retry` says whether waiting may cure it (a compositor restarting).
public struct FollowError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public let retry: Bool

    public init(_ description: String, retry: Bool = false) {
        self.description = description
        self.retry = retry
    }
}
