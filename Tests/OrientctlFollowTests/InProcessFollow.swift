import ArgumentParser
import Foundation
import Testing

@testable import OrientctlCommands

/// `orientctl follow ARGUMENTS` run in this process: parsed as the binary parses it, its work in a task of its own,
/// in the environment given (none of the test process's own), its lines read as they come.
final class InProcessFollow {
    private let task: Task<Void, any Error>
    private var lines: AsyncStream<String>.Iterator
    private let messages = Messages()
    /// Every line read so far, for failure messages.
    private(set) var seen: [String] = []

    init(_ arguments: [String], socket: String, environment: [String: String]) throws {
        let parsed = try Orientctl.parseAsRoot(["follow", "--socket", socket] + arguments)
        let command = try #require(parsed as? Orientctl.Follow)
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        lines = stream.makeAsyncIterator()
        let messages = messages
        let output = FollowOutput(line: { continuation.yield($0) }, message: { messages.append($0) })
        task = Task {
            defer { continuation.finish() }
            try await command.follow(environment: environment, printingTo: output)
        }
    }

    /// The next line on standard output; nil once follow ended (or the test was cancelled).
    func nextLine() async -> String? {
        let line = await lines.next()
        if let line { seen.append(line) }
        return line
    }

    /// The next `count` lines.
    func next(_ count: Int) async -> [String] {
        var read: [String] = []
        while read.count < count, let line = await nextLine() { read.append(line) }
        return read
    }

    /// Reads lines until one equals `line`; false when follow ended first.
    func read(until line: String) async -> Bool {
        while let next = await nextLine() {
            if next == line { return true }
        }
        return false
    }

    /// What follow wrote to standard error so far.
    var stderr: String { messages.text }

    /// What it printed, for failure messages.
    var transcript: String { "stdout:\n" + seen.joined(separator: "\n") + "\nstderr:\n" + stderr }

    /// The exit status and the message the binary would end with, once follow ends by itself.
    func ending() async -> (status: Int32, message: String) {
        do {
            // A test cancelled (past its time limit) stops follow rather than wait for it.
            try await withTaskCancellationHandler { try await task.value } onCancel: { [task] in task.cancel() }
            return (0, "")
        } catch let error as ClientError {
            return (error.status.rawValue, error.message)
        } catch {
            return (-1, "\(error)")
        }
    }

    /// Stops follow, as SIGTERM stops the binary.
    func stop() async {
        task.cancel()
        _ = await task.result
    }

    deinit { task.cancel() }

    private final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var written = ""
        var text: String { lock.withLock { written } }
        func append(_ message: String) { lock.withLock { written += message } }
    }
}

/// A folder with a runtime directory for the compositors' sockets, removed with it.
final class FollowFolder {
    let path: String
    var runtime: String { path + "/runtime" }

    init() throws {
        path = "/tmp/follow-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path + "/runtime", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
