#if canImport(Glibc)
import Glibc
#endif

/// Loads the local hwdb file into the hwdb and has udev apply it to the sensors, so that orientd and every other
/// reader see the new ACCEL_MOUNT_MATRIX: `systemd-hwdb update`, then `udevadm trigger --action=change` on them.
enum HwdbUpdate {
    /// Whether both commands ran and succeeded; says what failed.
    static func run(devices: [String], say: (String) -> Void) -> Bool {
        for command in [["systemd-hwdb", "update"], ["udevadm", "trigger", "--action=change"] + devices] {
            let status = spawnAndWait(command)
            guard status == 0 else {
                say("\(command.joined(separator: " ")): \(status.map { "exit status \($0)" } ?? "cannot run it")")
                return false
            }
        }
        return true
    }

    /// Runs `arguments` (looked up in PATH) with PATH alone as its environment, and waits for it; `nil` when it
    /// could not be started.
    private static func spawnAndWait(_ arguments: [String]) -> Int32? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        var argv = arguments.map { strdup($0) } + [nil]
        var environment = [strdup("PATH=" + path), nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environment { free(pointer) }
        }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], nil, nil, &argv, &environment) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED and WEXITSTATUS are macros Swift cannot see.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }
}
