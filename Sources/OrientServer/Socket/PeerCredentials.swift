#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a Unix socket, from SO_PEERCRED.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// Decides who may change system state: root, and members of the configured control group.
///
/// Membership is the peer's primary group (from SO_PEERCRED) or the group's member list in /etc/group, matched
/// by user name through /etc/passwd. Both files are read at each check, so edits apply at once. This works in a
/// static binary and under `ProtectProc=invisible`; groups known only to NSS services (LDAP) are not seen, so
/// give such users a local group, or give the gid as a number that is their primary group.
public struct ControlAuthorizer: Sendable {
    /// A group name or number; `nil` means root only.
    public var group: String?
    var groupFile = "/etc/group"
    var passwdFile = "/etc/passwd"

    public init(group: String?) {
        self.group = group
    }

    public func allows(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 { return true }
        guard let group else { return false }
        let entry = Self.entries(groupFile).first { $0.count >= 4 && ($0[0] == group || $0[2] == group) }
        guard let entry, let gid = UInt32(entry[2]) else {
            // An unknown name grants nothing; a number with no /etc/group line still matches primary groups.
            return UInt32(group).map { $0 == peer.gid } ?? false
        }
        if peer.gid == gid { return true }
        let members = entry[3].split(separator: ",").map(String.init)
        guard let user = Self.entries(passwdFile).first(where: { $0.count >= 3 && UInt32($0[2]) == peer.uid }) else {
            return false
        }
        return members.contains(user[0])
    }

    /// Why `group` can grant nothing, or nil when it can: a name must have a line in /etc/group; a number may
    /// be a primary group with none. Checked when the configuration is read, so that a typo is refused there
    /// rather than found when a member is turned away.
    public func problemWithGroup() -> String? {
        guard let group, UInt32(group) == nil else { return nil }
        guard Self.entries(groupFile).contains(where: { $0.count >= 4 && $0[0] == group }) else {
            return "no group \"\(group)\" in \(groupFile) (give a group name from it, or a number)"
        }
        return nil
    }

    /// The colon-separated fields of each line of a passwd-style file (empty when it cannot be read).
    static func entries(_ path: String) -> [[String]] {
        guard let file = fopen(path, "re") else { return [] }
        defer { fclose(file) }
        var result: [[String]] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0, let line {
            var text = String(cString: line)
            if text.hasSuffix("\n") { text.removeLast() }
            if text.hasPrefix("#") || text.isEmpty { continue }
            result.append(text.split(separator: ":", omittingEmptySubsequences: false).map(String.init))
        }
        free(line)
        return result
    }
}
