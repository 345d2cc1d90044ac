#if canImport(Glibc)
import Glibc
#endif

/// Standard error, and what C libraries write to it.
///
/// libiio writes its own messages straight to descriptor 2 (`WARNING: High-speed mode not enabled` at each buffer it
/// opens, `ERROR: Error during buffer disable` once per channel when a device goes away), where they land in the
/// journal between orientd's lines, unasked and unexplained. So the calls that print are made inside
/// ``capturing(_:)``, which points descriptor 2 at a pipe for their duration and hands back what was written, for
/// the caller to log at a level that fits. orientd's own log is written to ``logDescriptor``, a copy of standard
/// error taken before any capture, so that no line of its own is caught.
package enum StandardError {
    /// Standard error as the process started with it.
    package static let logDescriptor: Int32 = {
        let copy = fcntl(2, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? copy : 2
    }()

    /// One capture at a time: descriptor 2 is the process's, and two threads swapping it would each restore the
    /// other's pipe.
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// Writes `text` and a newline to ``logDescriptor``, whole, however the writes are split.
    package static func writeLine(_ text: String) {
        var line = text
        line += "\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(logDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Runs `body` with descriptor 2 pointed at a pipe, and returns its result with the lines written there. A line
    /// written more than once in a row is kept once. Whatever cannot be set up (no descriptor left) runs `body`
    /// as it is, with nothing captured.
    package static func capturing<Result>(_ body: () throws -> Result) rethrows -> (Result, [String]) {
        _ = logDescriptor
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (try body(), []) }
        defer { close(ends[0]) }
        // Glibc's module does not offer pipe2, so the flags are set one by one: no child inherits the pipe, and the
        // read at the end never waits.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0, dup2(ends[1], 2) >= 0 else {
            close(ends[1])
            if saved >= 0 { close(saved) }
            return (try body(), [])
        }
        close(ends[1])
        let result: Result
        do {
            result = try body()
        } catch {
            restore(saved)
            throw error
        }
        restore(saved)
        return (result, lines(readingAll: ends[0]))
    }

    private static func restore(_ saved: Int32) {
        dup2(saved, 2)
        close(saved)
    }

    /// What is in the pipe, as lines; its write end is closed, so the read ends there. A pipe holds 64 KB, far
    /// more than a library's few lines, so the writer never waited on it.
    private static func lines(readingAll descriptor: Int32) -> [String] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        var lines: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self)
            if text != lines.last, !text.allSatisfy(\.isWhitespace) { lines.append(text) }
        }
        return lines
    }
}
