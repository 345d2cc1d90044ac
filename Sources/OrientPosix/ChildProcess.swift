#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
package enum ChildExit: Equatable, Sendable {
    case exited(status: Int32)
    case killed(signal: Int32)
}

/// A child process that could not be started or waited for: the call that failed and its error number.
package struct ChildProcessError: Error, CustomStringConvertible {
    package let call: String
    package let errorNumber: Int32
    package var description: String { "\(call): \(String(cString: strerror(errorNumber)))" }
}

/// Runs the program at `path` with `arguments` (argv[0] first) and `environment` ("NAME=value" entries), and
/// waits for it to end. It shares the caller's standard input, output and error and nothing else: descriptors
/// from 3 up are closed in it, every signal is at its default action and none is blocked, whatever the caller
/// set. posix_spawn rather than Foundation's Process, which would link Foundation and ICU (BENCHMARKS.md).
package func runChildProcess(_ path: String, arguments: [String], environment: [String]) throws(ChildProcessError)
    -> ChildExit
{
    var argv = arguments.map { strdup($0) } + [nil]
    var envp = environment.map { strdup($0) } + [nil]
    defer {
        for pointer in argv + envp { free(pointer) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // posix_spawn_file_actions_addclosefrom_np would do it in one action, but Swift's Glibc module hides GNU
    // extensions. A descriptor closed meanwhile is no error: posix_spawn ignores a failed close.
    for descriptor in openDescriptors() where descriptor > 2 {
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, &attributes, &argv, &envp)
    guard result == 0 else { throw ChildProcessError(call: "posix_spawn", errorNumber: result) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        // ECHILD when SIGCHLD is ignored: the kernel then reaps the child itself, and its status is lost.
        guard errno == EINTR else { throw ChildProcessError(call: "waitpid", errorNumber: errno) }
    }
    // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift cannot see.
    return status & 0x7f == 0 ? .exited(status: (status >> 8) & 0xff) : .killed(signal: status & 0x7f)
}

/// The descriptors open in this process, from /proc/self/fd (empty if it cannot be read).
private func openDescriptors() -> [Int32] {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    var descriptors: [Int32] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let descriptor = Int32(name), descriptor != dirfd(directory) { descriptors.append(descriptor) }
    }
    return descriptors
}
