import ArgumentParser
import OrientTrace

/// Why an offline command stopped once its arguments were taken: the line it writes to standard error and its exit
/// status. The commands' work throws it rather than printing, so that tests see both without running a process;
/// each command's `run()` reports it.
struct CommandFailure: Error {
    let message: String
    let status: ExitCode

    /// A trace that cannot be read, as `classify`, `plot` and `run --replay` answer it: 66 when it cannot be opened,
    /// 74 when it cannot be read, 65 for malformed data (the message names the file and line).
    init(_ error: TraceError) {
        message = "orientd: \(error)"
        switch error.kind {
        case .cannotOpen: status = ExitStatus.noInput
        case .readFailed: status = ExitStatus.ioError
        case .badData: status = ExitStatus.badData
        }
    }

    init(message: String, status: ExitCode) {
        self.message = message
        self.status = status
    }

    /// Runs a command's work on standard output, as each command's `run()` does: a failure's message goes to
    /// standard error, and its status is thrown.
    static func reporting(_ work: (inout StandardOutput) throws -> Void) throws {
        var standardOutput = StandardOutput()
        do {
            try work(&standardOutput)
        } catch let failure as CommandFailure {
            printError(failure.message)
            throw failure.status
        }
    }
}
