import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-shot stand-in for the daemon, in the test process: a socket that accepts one connection, reads one
/// request line and answers it after `delay` seconds, as a daemon reading its sensor before replying would. It
/// gives orientctl what the real daemon sends only with a two-sensor source (posture, tablet mode, hinge angle),
/// and fields this orientctl does not know.
final class FakeDaemon {
    let path: String
    private let listener: Int32
    private let received = Received()

    /// The request line it received; nil until a whole line came.
    var request: String? { received.line }

    /// - Parameters:
    ///   - reply: the lines to send for the request's id (a reply, then any events), without the last newline.
    ///   - hangUp: close the connection once they are sent, as a daemon that stops, instead of waiting for the
    ///     client to hang up (`monitor` and `watch` read until the daemon goes).
    init(delay: Double = 0, hangUp: Bool = false, reply: @escaping @Sendable (_ id: String) -> String) throws {
        path = "/tmp/orientctl-fake-\(UUID().uuidString.prefix(8)).sock"
        let listener = try Self.listen(on: path)
        self.listener = listener
        let received = received
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { Glibc.close(connection) }
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
            // A client that hangs up before a whole line (a request it refused to send) gets no answer.
            guard byte == UInt8(ascii: "\n") else { return }
            received.line = String(decoding: bytes, as: UTF8.self)
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            let id = (object?["id"] as? Int).map(String.init) ?? "null"
            usleep(UInt32(delay * 1_000_000))
            let answer = Array((reply(id) + "\n").utf8)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // Else wait for the client to hang up, so that it never sees the connection end before the reply.
            while !hangUp, read(connection, &byte, 1) > 0 {}
        }
    }

    /// A stand-in that answers with `state` (the reply's fields after `ok` and `id`), sends each of `events` (an
    /// orientation event's fields after `event`), and hangs up.
    convenience init(state: String, events: [String] = []) throws {
        try self.init(hangUp: true) { id in
            "{\"ok\":true,\"id\":\(id),\(state)}" + events.map { "\n{\"event\":\"orientation\",\($0)}" }.joined()
        }
    }

    deinit {
        // shutdown wakes an accept that is still waiting; close alone would not.
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        unlink(path)
    }

    /// A Unix stream socket bound to `path` and listening for one client.
    private static func listen(on path: String) throws -> Int32 {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(listener, 1) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot listen on \(path): \(reason)"])
        }
        return listener
    }
}

/// The request line, written by the fake daemon's thread and read by the test.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var request: String?

    var line: String? {
        get { lock.withLock { request } }
        set { lock.withLock { request = newValue } }
    }
}
