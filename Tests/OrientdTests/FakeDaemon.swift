import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-shot stand-in for the daemon: accepts one connection, reads one request and answers it after
/// `delay` seconds, as a daemon reading its sensor before replying would. It also gives orientctl states the
/// real daemon sends only with a two-sensor source (posture, tablet mode, hinge angle).
final class FakeDaemon {
    let path: String
    private let listener: Int32
    private let received = ReceivedLine()

    /// The request line it received.
    var request: String? { received.value }

    /// - Parameters:
    ///   - reply: the lines to send for the request's id (a reply, then any events), without the last newline.
    ///   - hangUp: close the connection once they are sent, as a daemon that stops, instead of waiting for the
    ///     client to hang up (`monitor` and `watch` read until the daemon goes).
    init(path: String, delay: Double = 0, hangUp: Bool = false, reply: @escaping @Sendable (String) -> String) throws {
        self.path = path
        let listener = try listeningSocket(path, backlog: 1)
        self.listener = listener
        let received = received
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { Glibc.close(connection) }
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
            received.value = String(decoding: bytes, as: UTF8.self)
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            let id = (object?["id"] as? Int).map(String.init) ?? "null"
            usleep(UInt32(delay * 1_000_000))
            let answer = Array((reply(id) + "\n").utf8)
            _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            // Else wait for the client to hang up, so that it never sees the connection end before the reply.
            while !hangUp, read(connection, &byte, 1) > 0 {}
        }
    }

    deinit {
        // shutdown wakes an accept that is still waiting; close alone would not.
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        unlink(path)
    }
}

/// The request line, written by the fake daemon's thread and read by the test.
private final class ReceivedLine: @unchecked Sendable {
    private let lock = NSLock()
    private var line: String?

    var value: String? {
        get { lock.withLock { line } }
        set { lock.withLock { line = newValue } }
    }
}
