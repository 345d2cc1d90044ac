import ArgumentParser
import OrientInput
import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

/// `orientd-tablet-mode-switch`: the one part of orientd that writes /dev/uinput. It keeps a tablet-mode switch
/// (EV_SW and SW_TABLET_MODE only: a uinput device cannot gain other capabilities once made) as orientd's socket
/// says, and takes no other input: it sends one request and reads three exact lines (``SwitchCommand``). orientd
/// decides; a compromised daemon can only turn the switch on or off. A seccomp filter (``UinputRequestFilter``),
/// set before it reads anything, lets the keeper itself make no uinput device but such a switch.
///
/// One thread, blocking in poll(2) on the socket and a signalfd: no event loop, no wakeup while nothing changes.
/// When orientd's stream ends (it stopped, restarted, or the connection broke) the switch reports 0 and goes, and
/// the keeper connects again after 0.5 s, then 1, 2, 4 and 8 s (a connection starts a socket-activated orientd, as
/// any client's does). SIGTERM and SIGINT clear the switch the same way and end it with status 0.
public struct SwitchKeeper: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "orientd-tablet-mode-switch",
        abstract: "Keep a SW_TABLET_MODE switch as orientd says (run by orientd-tablet-mode-switch.service).")

    /// What it asks of orientd: no orientation events, only the switch's state.
    static let request = Array(#"{"op":"subscribe","changes":"none","tablet-mode-switch":true}"#.utf8) + [UInt8(ascii: "\n")]
    static let firstDelay = 0.5
    static let longestDelay = 8.0

    @Option(help: "orientd's socket (default: $ORIENTD_SOCKET, else /run/orientd/orientd.sock).")
    var socket: String = SwitchKeeper.defaultSocket

    @Option(help: "The uinput device.")
    var uinput: String = TabletModeSwitch.devicePath

    static var defaultSocket: String { getenv("ORIENTD_SOCKET").map { String(cString: $0) } ?? "/run/orientd/orientd.sock" }

    public init() {}

    public func run() throws {
        guard let signals = Self.stopSignals() else {
            throw ValidationError("cannot take SIGTERM and SIGINT: \(String(cString: strerror(errno)))")
        }
        // Before anything is read from orientd. A kernel without seccomp leaves the unit's own sandbox.
        do { try UinputRequestFilter.restrictToTabletModeSwitch() } catch { Self.say("\(error); going on without it") }
        let device = KeptSwitch(path: uinput)
        var delay = Self.firstDelay
        while true {
            let heard = follow(socket: socket, device: device, signals: signals)
            device.clear()
            if heard == nil { return }  // stopped
            if heard == true { delay = Self.firstDelay }
            if Self.wait(signals, seconds: delay) { return }
            delay = min(delay * 2, Self.longestDelay)
        }
    }

    /// One connection: the request, then the lines until the stream ends. Returns whether a command was heard, or
    /// `nil` when a stop signal came.
    private func follow(socket path: String, device: KeptSwitch, signals: Int32) -> Bool? {
        let connection: Int32
        switch Self.connect(path) {
        case .success(let fd): connection = fd
        case .failure(let reason):
            Self.say("cannot connect to \(path): \(reason)")
            return false
        }
        defer { close(connection) }
        guard Self.send(Self.request, to: connection) else {
            Self.say("\(path): the request was not sent: \(String(cString: strerror(errno)))")
            return false
        }
        var lines = LineAssembler(limit: SwitchCommand.longestLine)
        var heard = false
        var settled = false
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            var watched = [pollfd(fd: connection, events: Int16(POLLIN), revents: 0), pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            guard poll(&watched, 2, -1) >= 0 || errno == EINTR else { return heard }
            if watched[1].revents != 0 { return nil }
            guard watched[0].revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                Self.say("orientd's stream ended; the switch is cleared")
                return heard
            }
            for line in lines.take(chunk[0..<count]) {
                guard let command = SwitchCommand(line: line) else { continue }
                heard = true
                device.take(command)
                if !settled {
                    // Start-up touched most of the binary (argument parsing, the runtime's first look-ups), which
                    // it never runs again: given back, as the daemon gives its own back (ResidentPages).
                    settled = true
                    _ = try? ResidentPages.releaseRereadable()
                }
            }
        }
    }

    private static func connect(_ path: String) -> Result<Int32, CError> {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(CError()) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            return .failure(CError(text: "the path is too long for a socket"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = CError()
            close(fd)
            return .failure(error)
        }
        return .success(fd)
    }

    private static func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// SIGTERM and SIGINT as a descriptor that poll(2) watches: each writes a byte to a pipe (a signal handler may
    /// only do that much), whose read end is returned.
    private static func stopSignals() -> Int32? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        stopPipe = ends[1]
        signal(SIGTERM, stopSignalHandler)
        signal(SIGINT, stopSignalHandler)
        // A parent may have left them blocked (a process inherits its mask).
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGINT)
        guard sigprocmask(SIG_UNBLOCK, &mask, nil) == 0 else { return nil }
        return ends[0]
    }

    /// Waits `seconds`; returns true when a stop signal came meanwhile.
    private static func wait(_ signals: Int32, seconds: Double) -> Bool {
        var watched = pollfd(fd: signals, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, Int32(seconds * 1000)) > 0
    }

    /// One line on standard error, which the journal keeps.
    static func say(_ text: String) {
        let line = Array("orientd-tablet-mode-switch: \(text)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    struct CError: Error, CustomStringConvertible {
        let description: String
        init(text: String? = nil) { description = text ?? String(cString: strerror(errno)) }
    }
}

/// The uinput device as ``SwitchKeeping`` says it should be.
final class KeptSwitch {
    private let path: String
    private var keeping = SwitchKeeping()
    private var device: TabletModeSwitch?

    init(path: String) {
        self.path = path
    }

    func take(_ command: SwitchCommand) { carry(keeping.take(command)) }

    func clear() { carry(keeping.clear()) }

    private func carry(_ actions: [SwitchKeeping.Action]) {
        for action in actions {
            switch action {
            case .create:
                do {
                    device = try TabletModeSwitch(path: path)
                    SwitchKeeper.say("\(TabletModeSwitch.deviceName) created through \(path)")
                } catch {
                    // Tried again at the next command: the state says nothing exists.
                    SwitchKeeper.say("\(error)")
                    keeping = SwitchKeeping()
                    return
                }
            case .report(let on):
                do { try device?.report(on) } catch { SwitchKeeper.say("\(error)") }
            case .destroy:
                device = nil
                SwitchKeeper.say("\(TabletModeSwitch.deviceName) removed")
            }
        }
    }
}

/// The pipe's write end, for the handler: set once, before the handlers are installed.
nonisolated(unsafe) private var stopPipe: Int32 = -1

private func stopSignalHandler(_ signal: Int32) {
    var byte: UInt8 = 1
    _ = write(stopPipe, &byte, 1)
}
