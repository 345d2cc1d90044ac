import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// A blocking Unix stream socket with a timeout on every read and write: compositor IPC is a few short
/// request-and-reply exchanges, and a compositor that hangs must not hang `follow` for good.
public final class UnixStream {
    private var fd: Int32
    public let path: String

    /// `timeout` 0 waits for ever (a connection that is only watched for the compositor's exit).
    public init(path: String, timeout: Double = 5) throws(FollowError) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FollowError("socket: \(Self.errorText())") }
        let address: SocketAddress
        do {
            address = try SocketAddress(unixDomainSocketPath: path)
        } catch {
            close()
            throw FollowError("bad socket path \(path): \(error)")
        }
        let result = address.withSockAddr { connect(fd, $0, socklen_t($1)) }
        guard result == 0 else {
            let text = Self.errorText()
            close()
            throw FollowError("cannot connect to \(path): \(text)", retry: true)
        }
        guard timeout > 0 else { return }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    public func write(_ bytes: [UInt8]) throws(FollowError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw lost("write") }
            offset += n
        }
    }

    /// Exactly `count` bytes.
    public func read(count: Int) throws(FollowError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw lost("read") }
            offset += n
        }
        return bytes
    }

    /// Bytes up to a newline (not included).
    public func readLine(maximum: Int = 16 << 20) throws(FollowError) -> [UInt8] {
        var line: [UInt8] = []
        while true {
            let byte = try read(count: 1)[0]
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
            guard line.count <= maximum else { throw FollowError("\(path): reply longer than \(maximum) bytes") }
        }
    }

    /// Everything until the other side closes.
    public func readToEnd(maximum: Int = 16 << 20) throws(FollowError) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n == 0 { return all }
            guard n > 0 else { throw lost("read") }
            all += chunk[0..<n]
            guard all.count <= maximum else { throw FollowError("\(path): reply longer than \(maximum) bytes") }
        }
    }

    /// Blocks until the other side closes the connection (the compositor exits). Replies arriving meanwhile do
    /// not wake it: it waits for the peer's hang-up only, so requests may go on over the same connection.
    public func waitUntilPeerCloses() {
        // POLLRDHUP (0x2000, poll(2)) is behind _GNU_SOURCE, which Glibc's module does not define.
        var entry = pollfd(fd: fd, events: 0x2000, revents: 0)
        while fd >= 0 {
            let n = poll(&entry, 1, -1)
            if n < 0, errno == EINTR { continue }
            return
        }
    }

    /// Reads and drops whatever arrives until the other side closes.
    public func discardUntilClosed() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while fd >= 0 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
        }
    }

    /// Says that nothing more will be written (for protocols that read a request until end of file).
    public func finishWriting() {
        shutdown(fd, Int32(SHUT_WR))
    }

    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { close() }

    private func lost(_ operation: String) -> FollowError {
        let text = errno == EAGAIN ? "no answer within the timeout" : Self.errorText()
        return FollowError("\(path): \(operation) failed: \(text)", retry: true)
    }

    private static func errorText() -> String {
        errno == 0 ? "connection closed" : String(cString: strerror(errno))
    }
}
