import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What /proc says about a running process (the daemon under load), and this process's own open-file limit.
enum ProcessProbe {
    /// The number of open descriptors: entries of /proc/PID/fd.
    static func openDescriptors(_ pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// Resident anonymous memory (the heap and stacks, not the mapped binary) in KiB, from /proc/PID/status.
    static func rssAnon(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// Raises this process's soft open-file limit to the hard one (a thousand clients need a thousand
    /// descriptors here too, and the soft limit is often 1024). Returns the limit now in force.
    @discardableResult
    static func raiseOwnDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// This process's hard open-file limit.
    static var hardDescriptorLimit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return Int(clamping: limit.rlim_max)
    }
}
