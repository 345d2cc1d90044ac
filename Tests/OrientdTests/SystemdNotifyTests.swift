import Foundation
import OrientScenarios
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for systemd's notification socket: a datagram socket the daemon reports to.
///
/// Each message carries the moment the kernel queued it, during the daemon's send (SO_TIMESTAMPNS): intervals
/// between pings are measured where they happen, not when this process, on a loaded machine, gets to read them.
final class NotifySocket {
    struct Message {
        let text: String
        /// When the daemon sent it: seconds on the wall clock.
        let sent: Double
    }

    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let result = withUnixAddress(path) { bind(fd, $0, $1) }
        guard result == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw HarnessError("SO_TIMESTAMPNS: \(String(cString: strerror(errno)))")
        }
    }

    /// The next message, or `nil` after `timeout` seconds.
    func receive(timeout: Double = 10) -> String? { receiveStamped(timeout: timeout)?.text }

    /// The next message with its sending time, or `nil` after `timeout` seconds.
    func receiveStamped(timeout: Double = 10) -> Message? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(0, timeout) * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Room for one control message: a cmsghdr then a timespec (SCM_TIMESTAMPNS), both 8-byte aligned.
        var control = [UInt8](repeating: 0, count: MemoryLayout<cmsghdr>.size + MemoryLayout<timespec>.size)
        let count = buffer.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { control in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &vector) { vector in
                    var message = msghdr()
                    message.msg_iov = vector
                    message.msg_iovlen = 1
                    message.msg_control = control.baseAddress
                    message.msg_controllen = control.count
                    return recvmsg(fd, &message, 0)
                }
            }
        }
        guard count > 0 else { return nil }
        let header = control.withUnsafeBytes { $0.loadUnaligned(as: cmsghdr.self) }
        guard header.cmsg_level == SOL_SOCKET, header.cmsg_type == SO_TIMESTAMPNS else { return nil }
        let stamp = control.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: MemoryLayout<cmsghdr>.size, as: timespec.self) }
        return Message(text: String(decoding: buffer[0..<count], as: UTF8.self),
                       sent: Double(stamp.tv_sec) + Double(stamp.tv_nsec) * 1e-9)
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
    /// Starts the daemon on a replay, reporting to a fresh notification socket, with a watchdog of `watchdog` µs.
    private static func start(watchdog: Int, wrapper: [String] = []) throws -> (DaemonHarness, NotifySocket) {
        let folder = try DaemonHarness.makeFolder()
        let notify = try NotifySocket(path: folder + "/notify")
        let trace = try TraceFiles.write(ScenarioLibrary.session(rate: 50, seed: 30))
        let daemon = try DaemonHarness(
            ["--replay", trace], folder: folder, wrapper: wrapper,
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": String(watchdog)])
        return (daemon, notify)
    }

    /// When the daemon sent the next `count` WATCHDOG=1 pings (other messages are skipped).
    private static func pingTimes(_ notify: NotifySocket, count: Int, timeout: Double) -> [Double] {
        var times: [Double] = []
        let deadline = Date().addingTimeInterval(timeout)
        while times.count < count, let message = notify.receiveStamped(timeout: deadline.timeIntervalSinceNow) {
            if message.text == "WATCHDOG=1" { times.append(message.sent) }
        }
        return times
    }

    @Test("READY=1 once the socket listens, WATCHDOG=1 every half interval, STOPPING=1 on SIGTERM")
    func lifecycle() throws {
        let (daemon, notify) = try Self.start(watchdog: 2_000_000)
        let ready = notify.receive(until: "READY=1")
        #expect(ready.last?.contains("READY=1") == true)
        #expect(ready.last?.contains("STATUS=") == true)
        // Ready means the socket accepts connections already.
        #expect(try LineClient(path: daemon.socket).request(#""op":"get""#)?.ok == true)
        // A 2 s watchdog: a ping every second, never so late that systemd would give up, nor in a busy loop.
        let times = Self.pingTimes(notify, count: 5, timeout: 30)
        #expect(times.count == 5)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { (0.95..<2).contains($0) }, "gaps between pings as sent: \(gaps)")
        daemon.signal(SIGTERM)
        #expect(notify.receive(until: "STOPPING=1").last == "STOPPING=1")
    }

    /// Holding the event loop: strace delays each accept() by 3 s, and the loop is the thread that accepts.
    @Test("A stuck event loop stops the pings, and they resume once it runs again",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func stuckLoopStopsPings() throws {
        let (daemon, notify) = try Self.start(
            watchdog: 1_000_000,
            wrapper: ["/usr/bin/strace", "-f", "--seccomp-bpf", "-qq", "-o", "/dev/null", "-e", "trace=accept,accept4",
                      "-e", "inject=accept,accept4:delay_enter=3000000"])
        #expect(notify.receive(until: "READY=1").last?.contains("READY=1") == true)
        let before = Self.pingTimes(notify, count: 2, timeout: 20)
        #expect(before.count == 2, "pinging every 0.5 s before")
        let client = try LineClient(path: daemon.socket)  // The kernel completes the connection; accept() waits.
        let after = Self.pingTimes(notify, count: 4, timeout: 40)
        let times = before + after
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.max() ?? 0 >= 2.5, "no pause in the pings while the loop was held: \(gaps)")
        #expect(gaps.suffix(2).allSatisfy { $0 < 1 }, "the pings resume at their pace afterwards: \(gaps)")
        client.close()
    }
}
