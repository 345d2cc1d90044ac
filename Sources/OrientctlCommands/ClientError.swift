import ArgumentParser
import OrientProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A failure to report and the exit status it maps to.
struct ClientError: Error {
    let message: String
    let status: ExitCode

    static func notRunning(_ path: String, _ detail: String) -> ClientError {
        ClientError(message: "orientd is not running (cannot connect to \(path): \(detail))", status: ExitCode(69))
    }

    static func refused(_ error: ProtocolError) -> ClientError {
        let status: ExitCode =
            switch error.code {
            case .permissionDenied: ExitCode(77)
            case .internalError: ExitCode(70)
            default: ExitCode(65)
            }
        return ClientError(message: "orientd refused: \(error.message) (\(error.code.rawValue))", status: status)
    }

    static func protocolViolation(_ detail: String) -> ClientError {
        ClientError(message: "unexpected reply from orientd: \(detail)", status: ExitCode(70))
    }

    /// What orientctl writes to standard error for it.
    var line: String { "orientctl: \(message)\n" }
}

/// Runs `body`, printing a ClientError to standard error and exiting with its status.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ClientError {
        writeStandardError(error.line)
        throw error.status
    }
}

/// Runs a command's work on standard output, reporting its ClientError as ``reportingErrors(_:)`` does.
func reportingErrors(writingTo work: (inout UnbufferedStandardOutput) async throws -> Void) async throws {
    var standardOutput = UnbufferedStandardOutput()
    try await reportingErrors { try await work(&standardOutput) }
}

func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

/// Writes a line to standard output at once (`follow`'s lines; the other commands write to a stream, usually
/// ``UnbufferedStandardOutput``).
func printLine(_ text: String) {
    var output = UnbufferedStandardOutput()
    output.writeLine(text)
}
