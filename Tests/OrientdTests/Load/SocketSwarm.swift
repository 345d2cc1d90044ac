import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Many raw connections to the daemon's socket, read together from one thread with poll(): a thousand
/// subscribers without a thousand threads.
final class SocketSwarm {
    private var descriptors: [Int32] = []
    private var buffers: [[UInt8]]
    /// Whether the daemon closed each connection (end of file or an error).
    private(set) var closed: [Bool]

    var count: Int { descriptors.count }
    var openCount: Int { closed.lazy.filter { !$0 }.count }

    /// Connects `count` clients. A Unix socket's connect completes as soon as the backlog takes it, before the
    /// daemon accepts, so this is quick even when the daemon is busy.
    init(path: String, count: Int) throws {
        buffers = Array(repeating: [], count: count)
        closed = Array(repeating: false, count: count)
        for index in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw HarnessError("socket for client \(index): \(String(cString: strerror(errno)))") }
            guard withUnixAddress(path, { connect(fd, $0, $1) }) == 0 else {
                let error = errno
                Glibc.close(fd)
                closeAll()
                throw HarnessError("connect for client \(index): \(String(cString: strerror(error)))")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            descriptors.append(fd)
        }
    }

    /// Sends `text` on every connection (short lines: each fits an empty socket buffer at once).
    func sendAll(_ text: String) {
        for index in descriptors.indices { send(index, text) }
    }

    func send(_ index: Int, _ text: String) {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptors[index], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent != bytes.count { closed[index] = true }
    }

    /// Waits up to `timeout` seconds for data, reads everything that arrived, and hands each complete line to
    /// `onLine` with its client's index. A connection the daemon closed is marked in `closed`.
    func pump(timeout: Double, onLine: (Int, ArraySlice<UInt8>) -> Void) {
        let indices = descriptors.indices.filter { !closed[$0] }
        var polled = indices.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
        guard !polled.isEmpty, poll(&polled, nfds_t(polled.count), Int32(timeout * 1000)) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        for (entry, index) in zip(polled, indices) where entry.revents != 0 {
            while true {
                let n = chunk.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress, $0.count) }
                if n > 0 {
                    buffers[index] += chunk[0..<n]
                    continue
                }
                if n == 0 || (errno != EAGAIN && errno != EINTR) { closed[index] = true }
                break
            }
            var start = buffers[index].startIndex
            while let newline = buffers[index][start...].firstIndex(of: UInt8(ascii: "\n")) {
                onLine(index, buffers[index][start..<newline])
                start = newline + 1
            }
            buffers[index].removeSubrange(..<start)
        }
    }

    /// Pumps until `done` holds or `timeout` seconds pass; calls `tick` about once a second. Returns `done()`.
    @discardableResult
    func run(
        timeout: Double, tick: () -> Void = {}, until done: () -> Bool, onLine: (Int, ArraySlice<UInt8>) -> Void
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var nextTick = Date()
        while !done(), Date() < deadline {
            if Date() >= nextTick {
                tick()
                nextTick = nextTick.addingTimeInterval(1)
            }
            pump(timeout: min(0.2, max(0, deadline.timeIntervalSinceNow)), onLine: onLine)
        }
        return done()
    }

    func closeAll() {
        for fd in descriptors { Glibc.close(fd) }
        descriptors = []
        closed = []
        buffers = []
    }

    deinit { closeAll() }
}
