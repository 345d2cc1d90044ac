/// One compositor's IPC: list its outputs and carry out `follow`'s actions in its own terms.
///
/// Sendable because one thread waits in ``waitUntilGone()`` while requests go on elsewhere; the clients keep their
/// mutable state to the requesting side, and waiting only polls or reads a descriptor nothing else reads.
public protocol CompositorClient: AnyObject, Sendable {
    var kind: CompositorKind { get }
    /// The socket in use, for messages.
    var socketPath: String { get }
    /// How this connection spells its requests when the compositor has more than one way (Hyprland: `keyword` or
    /// `eval`, by its configuration), for messages; nil otherwise.
    var dialect: String? { get }
    func outputNames() throws(FollowError) -> [String]
    /// The requests, as the compositor's protocol spells them, that carry out `action` on `output`.
    func requests(for action: FollowAction, output: String) throws(FollowError) -> [String]
    /// Sends one request from ``requests(for:output:)`` and checks the reply.
    func send(_ request: String) throws(FollowError)
    /// Blocks (call it from a thread of its own) until the compositor goes away.
    func waitUntilGone()
}

extension CompositorClient {
    public var dialect: String? { nil }

    /// The requests for a list of actions, in order.
    public func requests(for actions: [FollowAction], output: String) throws(FollowError) -> [String] {
        var all: [String] = []
        for action in actions { all += try requests(for: action, output: output) }
        return all
    }
}

/// Where each compositor's socket is, and how to find it again when the compositor restarts under a new name.
public enum CompositorSocket {
    /// The socket named by the session's variable, else (after a restart, when that one is gone) the newest one
    /// of the same kind in the runtime directory that accepts a connection.
    public static func candidates(for kind: CompositorKind, environment: [String: String]) -> [String] {
        let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
        var paths: [String] = []
        switch kind {
        case .sway:
            // sway-ipc.<uid>.<pid>.sock: the pid changes with every start (sway(1), SWAYSOCK).
            if let path = environment["SWAYSOCK"], !path.isEmpty { paths.append(path) }
            if let path = environment["I3SOCK"], !path.isEmpty, path.contains("sway") { paths.append(path) }
            paths += newestFirst(in: runtime) { $0.hasPrefix("sway-ipc.\(getuid()).") && $0.hasSuffix(".sock") }
        case .hyprland:
            // $XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/.socket.sock (wiki.hypr.land/IPC).
            if let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty {
                paths.append(runtime + "/hypr/" + signature + "/.socket.sock")
            }
            paths += newestFirst(in: runtime + "/hypr") { !$0.hasPrefix(".") }.map { $0 + "/.socket.sock" }
        case .niri:
            // niri.<wayland display>.<pid>.sock, named by $NIRI_SOCKET (niri-ipc's socket.rs, src/ipc/server.rs).
            if let path = environment["NIRI_SOCKET"], !path.isEmpty { paths.append(path) }
            paths += newestFirst(in: runtime) { $0.hasPrefix("niri.") && $0.hasSuffix(".sock") }
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    private static func newestFirst(in folder: String, _ matches: (String) -> Bool) -> [String] {
        guard !folder.isEmpty, let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [(path: String, time: Int)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != "..", matches(name) else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            found.append((path, info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec))
        }
        return found.sorted { $0.time > $1.time }.map(\.path)
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension CompositorSocket {
    /// A client on the first candidate socket that answers with an output list.
    public static func connect(_ kind: CompositorKind, environment: [String: String]) throws(FollowError)
        -> any CompositorClient
    {
        let paths = candidates(for: kind, environment: environment)
        guard !paths.isEmpty else {
            let runtime = environment["XDG_RUNTIME_DIR"].map { " and none is in \($0)" } ?? " and XDG_RUNTIME_DIR is not set"
            throw FollowError("no \(kind.rawValue) socket: \(kind.sessionVariable) is not set\(runtime)", retry: true)
        }
        var last = FollowError("no \(kind.rawValue) socket answered", retry: true)
        for path in paths {
            do {
                let client: any CompositorClient =
                    switch kind {
                    case .sway: try SwayClient(path: path)
                    case .hyprland: try HyprlandClient(path: path)
                    case .niri: try NiriClient(path: path)
                    }
                _ = try client.outputNames()
                return client
            } catch {
                last = error
            }
        }
        throw FollowError(last.description, retry: true)
    }
}
