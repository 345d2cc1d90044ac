import Foundation
import OrientCore
import OrientScenarios
import OrientTrace

#if canImport(Glibc)
import Glibc
#endif

/// A trace written into a named pipe as the test goes, so that orientd (at `--speed max`) sees each pose when
/// the test decides, not at times fixed in advance.
final class PoseFeed {
    let path: String
    private let fd: Int32
    private var time = 0.0

    init(folder: String, name: String = "poses.fifo") throws {
        path = folder + "/" + name
        guard mkfifo(path, 0o600) == 0 else {
            throw HarnessError("mkfifo \(path): \(String(cString: strerror(errno)))")
        }
        // Read and write, so that opening does not wait for orientd and orientd never sees end of file.
        fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw HarnessError("open \(path): \(String(cString: strerror(errno)))") }
        write(TraceFormat.preamble(TraceMetadata(mountMatrix: .identity, source: "follow test")))
    }

    /// Two seconds of the device held still in `orientation`, at 50 Hz.
    func hold(_ orientation: DeviceOrientation, seconds: Double = 2) {
        let reading = Pose.upright(orientation).reading()
        var text = ""
        for _ in 0..<Int(seconds * 50) {
            time += 0.02
            text += TraceFormat.line(AccelSample(time: time, acceleration: reading))
        }
        write(text)
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard n > 0 else { return }
            offset += n
        }
    }

    deinit { close(fd) }
}

/// `orientctl follow` as a child process, with only the environment given (none of the test's own compositor
/// variables), its standard output read line by line and its standard error kept in a file for messages.
final class FollowProcess {
    let child: LineProcess
    let errorLog: String

    init(_ executable: String, _ arguments: [String], environment: [String: String], errorLog: String) throws {
        self.errorLog = errorLog
        child = try LineProcess(executable, arguments, environment: environment, inherit: false, errorLog: errorLog)
    }

    var process: Process { child.process }
    var lines: [String] { child.lines }

    /// Waits for a line, from index `start` on, that satisfies `matches`; returns its index.
    func waitForLine(after start: Int = 0, timeout: Double = 30, _ matches: (String) -> Bool) -> Int? {
        child.waitForLineIndex(after: start, timeout: timeout, matches)
    }

    var stderr: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }

    /// What it printed, for failure messages.
    var transcript: String { "stdout:\n" + lines.joined(separator: "\n") + "\nstderr:\n" + stderr }

    func stop() { child.kill() }
}

/// sway from Debian's package, headless, as user nobody (sway refuses to run as root), in a runtime directory
/// of its own.
final class HeadlessSway {
    static let binary = "/usr/bin/sway"
    static let swaymsg = "/usr/bin/swaymsg"
    static let asNobody = ServiceUserTests.asNobody
    static let isAvailable = getuid() == 0 && FileManager.default.isExecutableFile(atPath: binary)
    static let skipReason = "needs root (to run sway as nobody) and sway (scripts/test-deps.sh installs it)"

    let runtime: String
    private let folder: String
    private var process: Process?
    private(set) var socket = ""

    init(folder: String) throws {
        self.folder = folder
        runtime = folder + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chown(runtime, 65534, 65534)
        chmod(runtime, 0o700)
        try "output HEADLESS-1 resolution 1920x1080\n".write(
            toFile: folder + "/sway.config", atomically: true, encoding: .utf8)
        chmod(folder + "/sway.config", 0o644)
    }

    /// Starts sway and waits until its IPC socket answers.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.asNobody[0])
        process.arguments = Array(Self.asNobody.dropFirst()) + [Self.binary, "-c", folder + "/sway.config"]
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless",
            "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        let log = folder + "/sway-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // setpriv execs sway, so the pid is sway's, and so is the socket's name (sway-ipc.<uid>.<pid>.sock).
        socket = runtime + "/sway-ipc.65534.\(process.processIdentifier).sock"
        guard waitFor(timeout: 30, { (try? self.outputs()) != nil }) else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw HarnessError("sway did not answer on \(socket):\n\(text)")
        }
    }

    /// `swaymsg -t get_outputs`: each output's name and transform, as sway reports them.
    func outputs() throws -> [String: String] {
        let result = try OrientdProcess.run(["-s", socket, "-t", "get_outputs", "-r"], executable: Self.swaymsg)
        guard result.status == 0,
            let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        else { throw HarnessError("swaymsg get_outputs: \(result.stderr)") }
        var transforms: [String: String] = [:]
        for output in list {
            if let name = output["name"] as? String { transforms[name] = output["transform"] as? String ?? "?" }
        }
        return transforms
    }

    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}
