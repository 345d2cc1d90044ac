import Foundation

/// A running `orientd calibrate`, whose standard error is read line by line as it comes, so that a test can move
/// the emulated device on to the next pose when the tool says it took one.
/// Its mutable state is guarded by `condition`.
final class CalibrateProcess: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var errorText = ""
    private var outputText = ""
    private var openPipes = 2
    /// The exit status, set by the termination handler under `condition` (`Process.isRunning` may still say true
    /// when the handler runs).
    private var exitStatus: Int32?

    /// What is typed on the terminal, with `onTerminal`.
    private let typed = Pipe()

    /// `onTerminal`: standard input is a pseudo-terminal (Fixtures/on-terminal.py) that ``pressEnter()`` types on;
    /// otherwise there is none, as in a script.
    init(_ arguments: [String], environment: [String: String], onTerminal: Bool = false) throws {
        if onTerminal {
            process.executableURL = URL(fileURLWithPath: UmockdevTestbed.python)
            process.arguments = [Self.terminalScript, OrientdProcess.binary, "calibrate"] + arguments
            process.standardInput = typed
        } else {
            process.executableURL = URL(fileURLWithPath: OrientdProcess.binary)
            process.arguments = ["calibrate"] + arguments
            process.standardInput = FileHandle.nullDevice
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        for (pipe, isError) in [(output, false), (error, true)] {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else {
                    handle.readabilityHandler = nil
                    return
                }
                condition.lock()
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    openPipes -= 1
                } else if isError {
                    errorText += String(decoding: data, as: UTF8.self)
                } else {
                    outputText += String(decoding: data, as: UTF8.self)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        process.terminationHandler = { [weak self] process in
            guard let self else { return }
            let status = process.terminationStatus
            condition.lock()
            exitStatus = status
            condition.broadcast()
            condition.unlock()
        }
        try process.run()
    }

    static let terminalScript = String(#filePath).replacingOccurrences(
        of: "CalibrateProcess.swift", with: "Fixtures/on-terminal.py")

    func pressEnter() {
        typed.fileHandleForWriting.write(Data("\n".utf8))
    }

    /// Ends the terminal's input: the command gets SIGINT, as from Ctrl-C.
    func hangUp() throws {
        try typed.fileHandleForWriting.close()
    }

    /// Standard error so far.
    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    /// The first line of standard error that contains `text`, once it has been written; `nil` after `timeout`
    /// seconds or when the process has ended without writing it.
    @discardableResult
    func waitForLine(containing text: String, timeout: Double = 60) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = errorText.split(separator: "\n")
            if let line = lines.first(where: { $0.contains(text) }) { return String(line) }
            if exitStatus != nil && openPipes == 0 { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits for the process to end and its output to be read; the exit status (`nil` if it did not end within
    /// `timeout` seconds, when it is killed), standard output and error. Output still unread 5 s after the exit
    /// (a pipe some other process inherited) is not waited for.
    func finish(timeout: Double = 60) -> (status: Int32?, stdout: String, stderr: String) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while exitStatus == nil, condition.wait(until: deadline) {}
        let drained = min(deadline, Date().addingTimeInterval(5))
        while exitStatus != nil, openPipes > 0, condition.wait(until: drained) {}
        let result = (exitStatus, outputText, errorText)
        condition.unlock()
        if result.0 == nil {
            process.terminate()
            process.waitUntilExit()
        }
        return result
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
