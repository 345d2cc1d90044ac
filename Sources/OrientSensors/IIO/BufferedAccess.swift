#if canImport(Glibc)
import Glibc
#endif

/// The files buffered capture of one device writes, and which of them this process may not open as it needs.
///
/// Checked before trying, so that a sensor left to polling says which file and which permission is missing
/// (the shipped udev rule grants them to the service's group) instead of a bare EACCES from deep in libiio.
public struct BufferedAccess: Sendable, Equatable {
    public struct Denial: Sendable, Equatable, CustomStringConvertible {
        public let path: String
        /// "read and write" or "write".
        public let permission: String
        public let errno: Int32

        public var description: String {
            "\(permission) permission on \(path) (\(String(cString: strerror(errno))))"
        }
    }

    public let denials: [Denial]

    /// Checks the device node and the sysfs attributes under `sysfsPath` that capture writes. Files that do
    /// not exist are the driver's business (libiio skips or reports them), not a permission problem.
    public init(deviceID: String, sysfsPath: String) {
        var denials: [Denial] = []
        func check(_ path: String, _ mode: Int32, _ permission: String) {
            guard access(path, mode) != 0 else { return }
            let reason = errno
            if reason == EACCES || reason == EPERM || reason == EROFS {
                denials.append(Denial(path: path, permission: permission, errno: reason))
            }
        }
        check("/dev/\(deviceID)", R_OK | W_OK, "read and write")
        var attributes = ["buffer/enable", "buffer/length", "trigger/current_trigger"]
        attributes += ["x", "y", "z"].map { "scan_elements/in_accel_\($0)_en" } + ["scan_elements/in_timestamp_en"]
        for attribute in attributes { check("\(sysfsPath)/\(attribute)", W_OK, "write") }
        self.denials = denials
    }

    public var isPermitted: Bool { denials.isEmpty }

    /// One sentence for the log and `orientd doctor`.
    public var explanation: String {
        let who = "uid \(geteuid()), gid \(getegid())"
        return "buffered capture needs "
            + denials.map(\.description).joined(separator: "; ")
            + ", which this process (\(who)) lacks; the udev rule 80-orientd.rules grants them to group orientd"
    }
}
