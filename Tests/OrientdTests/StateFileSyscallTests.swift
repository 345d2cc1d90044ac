import Foundation
import Testing

/// What saving the state file does at the system-call level, seen and slowed down through strace.
@Suite("State file: system calls", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
struct StateFileSyscallTests {
    @Test("A lock is made durable: the temporary file is fsync'd, renamed over state.json, then the directory fsync'd")
    func durableWrite() throws {
        let folder = try DaemonHarness.makeFolder()
        let trace = folder + "/strace.log"
        let daemon = try DaemonHarness(
            ["--replay", try DaemonEndToEndTests.trace().path], folder: folder,
            wrapper: ["/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=openat,fsync,rename"])
        try daemon.waitUntilListening()
        #expect(try LineClient(path: daemon.socket).request(#""op":"lock""#)?.locked == true)
        daemon.signal(SIGTERM)
        daemon.process.waitUntilExit()
        let calls = Self.completedCalls(try String(contentsOfFile: trace, encoding: .utf8))
        // Where each path was last opened and as which descriptor, so that fsync(N) can be told apart.
        func opening(of suffix: String) -> (index: Int, descriptor: String)? {
            guard let index = calls.lastIndex(where: { $0.contains("openat(") && $0.contains(suffix + "\"") }),
                let descriptor = calls[index].split(separator: "=").last
            else { return nil }
            return (index, descriptor.trimmingCharacters(in: .whitespaces))
        }
        let temporary = try #require(opening(of: ".tmp"), "\(calls.joined(separator: "\n"))")
        let directory = try #require(opening(of: "/state"))
        let fileSync = calls[temporary.index...].firstIndex { $0.contains("fsync(\(temporary.descriptor))") }
        let rename = calls.firstIndex { $0.contains("rename(") && $0.contains("state.json\"") }
        let directorySync = calls[directory.index...].lastIndex { $0.contains("fsync(\(directory.descriptor))") }
        #expect(fileSync != nil && rename != nil && directorySync != nil, "\(calls.joined(separator: "\n"))")
        if let fileSync, let rename, let directorySync {
            #expect(fileSync < rename && rename < directorySync, "fsync, rename, fsync of the directory: in that order")
        }
    }

    /// strace's `-f` output as one line per call, in the order the calls returned. While another thread is in a
    /// call, strace splits it into `PID call(args <unfinished ...>` and, later, `PID <... call resumed>rest`: the
    /// two halves are joined at the resumed line, where the call returned.
    static func completedCalls(_ output: String) -> [String] {
        var unfinished: [Substring: String] = [:]
        var calls: [String] = []
        for line in output.split(separator: "\n") {
            let pid = line.prefix { !$0.isWhitespace }
            let call = line.dropFirst(pid.count).drop { $0.isWhitespace }
            if call.hasSuffix("<unfinished ...>") {
                // Without the space before the marker: `fsync(20 <unfinished ...>` resumed as `)` is `fsync(20)`.
                let head = call.dropLast("<unfinished ...>".count)
                unfinished[pid] = String(head.hasSuffix(" ") ? head.dropLast() : head)
            } else if call.hasPrefix("<... "), let resumed = call.range(of: " resumed>") {
                calls.append((unfinished.removeValue(forKey: pid) ?? "") + call[resumed.upperBound...])
            } else {
                calls.append(String(call))
            }
        }
        return calls
    }

    @Test("strace's split lines are joined where the call returned")
    func straceLinesJoined() {
        let output = """
            10 openat(AT_FDCWD, "/s/state.json.tmp", O_WRONLY|O_CREAT <unfinished ...>
            11 fsync(3)                = 0
            10 <... openat resumed>)   = 7
            10 fsync(7 <unfinished ...>
            11 openat(AT_FDCWD, "/proc/cmdline", O_RDONLY) = 8
            10 <... fsync resumed>)    = 0
            """
        #expect(Self.completedCalls(output) == [
            "fsync(3)                = 0", #"openat(AT_FDCWD, "/s/state.json.tmp", O_WRONLY|O_CREAT)   = 7"#,
            #"openat(AT_FDCWD, "/proc/cmdline", O_RDONLY) = 8"#, "fsync(7)    = 0",
        ])
    }

    /// Whether a thread of `pid` is inside (or stopped at the entry of) fsync, per /proc/PID/task/TID/syscall.
    static func inFsync(_ pid: Int32) -> Bool {
        #if arch(x86_64)
        let fsync = "74"
        #elseif arch(arm64)
        let fsync = "82"
        #else
        let fsync = "fsync's number on this architecture"  // Not known here: the wait fails, saying so.
        #endif
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { tid in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/syscall", encoding: .utf8)) ?? ""
            return text.split(separator: " ").first == Substring(fsync)
        }
    }

    @Test("A state file on a slow disk (fsync taking 3 s) holds back only the lock, not the other clients")
    func slowDiskDoesNotStallTheLoop() throws {
        let daemon = try DaemonHarness(
            ["--replay", try DaemonEndToEndTests.trace().path],
            wrapper: ["/usr/bin/strace", "-f", "--seccomp-bpf", "-qq", "-o", "/dev/null", "-e", "trace=fsync",
                      "-e", "inject=fsync:delay_enter=3000000"])
        try daemon.waitUntilListening()
        let controller = try LineClient(path: daemon.socket)
        let bystander = try LineClient(path: daemon.socket)
        let locking = Date()
        controller.send(#"{"op":"lock","id":1}"# + "\n")
        #expect(waitFor { Self.inFsync(daemon.daemonPID) }, "the lock's state file was never fsync'd")
        // While the lock is being written, another client is answered: its reply comes before the lock's.
        #expect(bystander.request(#""op":"status""#)?.ok == true)
        #expect(!controller.hasInput, "status waited for another client's fsync")
        let reply = controller.readMessage(timeout: 30)
        #expect(reply?.locked == true)
        #expect(Date().timeIntervalSince(locking) >= 3, "the lock is answered once it is on disk")
    }
}
