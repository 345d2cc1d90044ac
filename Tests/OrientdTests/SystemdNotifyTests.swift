import Foundation
import OrientScenarios
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for systemd's notification socket: a datagram socket the daemon reports to.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let result = withUnixAddress(path) { bind(fd, $0, $1) }
        guard result == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
    }

    /// The next message, or `nil` after `timeout` seconds.
    func receive(timeout: Double = 10) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Messages until one contains `text`; all of them, in order.
    func receive(until text: String, timeout: Double = 10) -> [String] {
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, let message = receive(timeout: max(0.1, deadline.timeIntervalSinceNow)) {
            messages.append(message)
            if message.contains(text) { break }
        }
        return messages
    }

    deinit { close(fd) }
}

@Suite("systemd notifications", .serialized)
struct SystemdNotifyTests {
    @Test("READY=1 once the socket listens, WATCHDOG=1 at half the interval, STOPPING=1 on SIGTERM")
    func lifecycle() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let notify = try NotifySocket(path: folder + "/notify")
        let trace = try writeTrace(ScenarioLibrary.session(rate: 50, seed: 30))
        let daemon = try DaemonHarness(
            ["--replay", trace], folder: folder, environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"])
        let ready = notify.receive(until: "READY=1")
        #expect(ready.last?.contains("READY=1") == true)
        #expect(ready.last?.contains("STATUS=") == true)
        // Ready means the socket accepts connections already.
        #expect(try LineClient(path: daemon.socket).request(#""op":"get""#)?.ok == true)
        let pings = (0..<3).compactMap { _ in notify.receive(timeout: 2) }.filter { $0 == "WATCHDOG=1" }
        #expect(pings.count == 3, "a ping every 200 ms for a 400 ms watchdog")
        daemon.signal(SIGTERM)
        #expect(notify.receive(until: "STOPPING=1").last == "STOPPING=1")
    }
}
