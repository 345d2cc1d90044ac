import Foundation
import OrientCore
import OrientProtocol
import OrientScenarios
import OrientTrace
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `orientd run` in its own temporary folder, with its socket and state there.
final class DaemonHarness {
    let folder: String
    let socket: String
    let stateDirectory: String
    let logPath: String
    private(set) var process: Process

    private let ownsFolder: Bool
    private let environment: [String: String]
    private let wrapper: [String]

    /// Starts `orientd run` with `arguments` plus a socket, a state directory and (unless given) an empty config.
    /// `launcher` passes the socket in (socket activation); `wrapper` only runs the daemon, e.g. under prlimit.
    init(
        _ arguments: [String], folder: String? = nil, socket: String? = nil, launcher: [String] = [],
        wrapper: [String] = [], environment: [String: String] = [:]
    ) throws {
        ownsFolder = folder == nil
        self.environment = environment
        self.wrapper = wrapper
        let folder = try folder ?? Self.makeFolder()
        self.folder = folder
        self.socket = socket ?? folder + "/orientd.sock"
        self.stateDirectory = folder + "/state"
        self.logPath = folder + "/orientd-\(UUID().uuidString.prefix(8)).log"
        var full = ["run", "--state-directory", stateDirectory] + arguments + Self.hermetic(arguments, environment)
        if !arguments.contains("--config") { full += ["--config", "/dev/null"] }
        if launcher.isEmpty { full += ["--socket", self.socket] }
        process = try Self.launch(full, launcher: wrapper + launcher, log: logPath, environment: environment)
    }

    /// Outside umockdev the daemon would find the machine's own panel (a developer's laptop is landscape) and
    /// name the poses by it: tests that do not set the natural orientation get the portrait names they expect.
    static func hermetic(_ arguments: [String], _ environment: [String: String]) -> [String] {
        let setsIt = arguments.contains { $0.hasPrefix("--natural-orientation") }
        return setsIt || environment["UMOCKDEV_DIR"] != nil ? [] : ["--natural-orientation", "portrait"]
    }

    static func makeFolder() throws -> String {
        let path = "/tmp/orientd-e2e-\(UUID().uuidString.prefix(12))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)  // Other users (the permission tests) must reach the socket.
        return path
    }

    private static func launch(
        _ arguments: [String], launcher: [String], log: String, environment: [String: String]
    ) throws -> Process {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let process = Process()
        if launcher.isEmpty {
            process.executableURL = URL(fileURLWithPath: OrientdProcess.binary)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: launcher[0])
            process.arguments = Array(launcher.dropFirst()) + [OrientdProcess.binary] + arguments
        }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        try process.run()
        return process
    }

    /// Waits until the socket accepts connections.
    func waitUntilListening(timeout: Double = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let client = try? LineClient(path: socket) {
                client.close()
                return
            }
            guard process.isRunning else { throw HarnessError("orientd exited early:\n\(log)") }
            usleep(20_000)
        }
        throw HarnessError("orientd did not listen within \(timeout) s:\n\(log)")
    }

    /// Sends a signal; for SIGTERM waits for the exit and returns the status.
    @discardableResult
    func signal(_ number: Int32) -> Int32? {
        kill(daemonPID, number)
        guard number == SIGTERM || number == SIGINT || number == SIGKILL else { return nil }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Stops the daemon with SIGTERM and expects a clean exit (status 0); otherwise the daemon's log is the
    /// failure's message, as a stop that overran names the service it waited on there.
    func expectCleanStop(sourceLocation: SourceLocation = #_sourceLocation) {
        let status = signal(SIGTERM)
        #expect(status == 0, "orientd ended with \(status.map(String.init) ?? "no exit"):\n\(log)", sourceLocation: sourceLocation)
    }

    /// Restarts the daemon with the same folder, socket and state.
    func restart(_ arguments: [String]) throws {
        if process.isRunning { signal(SIGTERM) }
        var full = ["run", "--state-directory", stateDirectory, "--socket", socket] + arguments
            + Self.hermetic(arguments, environment)
        if !arguments.contains("--config") { full += ["--config", "/dev/null"] }
        process = try Self.launch(full, launcher: wrapper, log: logPath, environment: environment)
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Asks `op` (get or status) until `condition` holds or 10 s pass; returns the last reply.
    @discardableResult
    func poll(op: String = "get", until condition: (ServerMessage) -> Bool) throws -> ServerMessage? {
        let client = try LineClient(path: socket)
        var last: ServerMessage?
        _ = waitFor(timeout: 10) {
            last = client.request("\"op\":\"\(op)\"")
            return last.map(condition) ?? false
        }
        return last
    }

    /// The daemon's own pid: a wrapper that stays as its parent (strace, which ignores SIGTERM while it
    /// traces) has it as its only child; one that execs it (prlimit) has the same pid.
    var daemonPID: pid_t {
        let own = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(own)/task/\(own)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) } ?? own
    }

    deinit {
        if process.isRunning {
            kill(daemonPID, SIGKILL)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        if ownsFolder { try? FileManager.default.removeItem(atPath: folder) }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A raw protocol client: a Unix socket, lines in and out, with timeouts.
final class LineClient {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let result = withUnixAddress(path) { connect(fd, $0, $1) }
        if result != 0 {
            let error = errno
            // deinit runs after a throwing init too: close once here and leave nothing for it, or it would
            // close a descriptor number another test may have opened meanwhile.
            close()
            throw HarnessError("connect \(path): \(String(cString: strerror(error)))")
        }
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that hung up is an error to see, not a SIGPIPE that kills the tests.
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Whether a line, part of one, or end of file is there to read now.
    var hasInput: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return !buffer.isEmpty || poll(&poller, 1, 0) > 0
    }

    /// Waits until the peer has read everything sent so far: the bytes it has not read are still charged to
    /// this socket (SIOCOUTQ, which is TIOCOUTQ). Returns `false` after `timeout` seconds.
    func waitUntilRead(timeout: Double = 10) -> Bool {
        waitFor(timeout: timeout, interval: 0.005) {
            var unread: Int32 = 0
            return ioctl(fd, UInt(TIOCOUTQ), &unread) == 0 && unread == 0
        }
    }

    /// The next line, or `nil` on end of file or timeout.
    func readLine(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(remaining, 1) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    func readMessage(timeout: Double = 10) -> ServerMessage? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return try? ServerMessage.decode(Array(line.utf8))
    }

    /// Sends a request with a fresh id and returns its reply, skipping events.
    func request(_ fields: String, timeout: Double = 10) -> ServerMessage? {
        let id = nextID
        nextID += 1
        send("{\"id\":\(id),\(fields)}\n")
        while let message = readMessage(timeout: timeout) {
            if message.id == .number(Double(id)) { return message }
        }
        return nil
    }

    /// Closes the connection once; the descriptor number may be reused by the next socket at once.
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { close() }
}

/// The changes a trace should produce, computed in-process with the engine's defaults.
struct ExpectedChanges {
    let devices: [(time: Double, device: DeviceOrientation)]

    init(trace path: String) throws {
        let reader = try TraceReader(path: path)
        var engine = try OrientationEngine(mountMatrix: reader.metadata.mountMatrix ?? .identity, tracker: InterfaceOrientationTracker())
        var devices: [(Double, DeviceOrientation)] = []
        while let sample = try reader.next() {
            if let change = try engine.feed(sample) { devices.append((change.time, change.device)) }
        }
        self.devices = devices
    }

    /// The interface orientations a subscriber with `mask` and `preferred` sees, repeats removed.
    func interfaces(mask: InterfaceOrientationMask, preferred: InterfaceOrientation? = nil) throws -> [String] {
        var tracker = try InterfaceOrientationTracker(clientMask: mask, preferred: preferred)
        var result: [String] = []
        for (_, device) in devices {
            tracker.update(device: device)
            if tracker.interface != .unknown, result.last != tracker.interface.rawValue { result.append(tracker.interface.rawValue) }
        }
        return result
    }
}

/// Reads events until one at `finalTime` arrives; returns every event's message.
func collectEvents(_ client: LineClient, until finalTime: Double, timeout: Double = 30) -> [ServerMessage] {
    var events: [ServerMessage] = []
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline, let message = client.readMessage(timeout: deadline.timeIntervalSinceNow) {
        guard message.event != nil else { continue }
        events.append(message)
        if message.t == finalTime { break }
    }
    return events
}

func dedupInterfaces(_ events: [ServerMessage]) -> [String] {
    var result: [String] = []
    for interface in events.compactMap(\.interface) where interface != "unknown" && result.last != interface {
        result.append(interface)
    }
    return result
}

/// Calls `body` with a Unix socket address for `path` and its length (for connect and bind).
func withUnixAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: path.utf8)
        raw[path.utf8.count] = 0
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
