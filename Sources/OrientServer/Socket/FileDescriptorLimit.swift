#if canImport(Glibc)
import Glibc
#endif

/// The soft limit on open files starts at 1024 under systemd and most shells, fewer than `max-clients` plus the
/// daemon's own descriptors. Raising the soft limit up to the hard one needs no privilege.
public enum FileDescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to at least `needed` where the hard limit allows.
    /// - Returns: the soft limit now in force, or `nil` if it could not be read.
    @discardableResult
    public static func raise(toAtLeast needed: Int) -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let wanted = rlim_t(needed)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 { _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
