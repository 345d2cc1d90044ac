import OrientCore
import OrientConfiguration
import OrientServer

/// Parses the input as a whole orientd.conf. Beyond not crashing:
/// - the key-value syntax round-trips: the assignments written back out (values quoted) parse to the same ones;
/// - CRLF line ends read exactly as LF ones, for the syntax and for the configuration;
/// - every error names the file and a line inside it;
/// - an accepted mask prints as a name that parses back to the same mask.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    // On bytes: String.replacing works on Characters, and "\r\n" is one Character.
    let crlf = String(decoding: text.utf8.flatMap { $0 == UInt8(ascii: "\n") ? [13, 10] : [$0] }, as: UTF8.self)

    do {
        let file = try KeyValueFile(parsing: text)
        for assignment in file.assignments {
            precondition((1...lineCount).contains(assignment.line), "assignment on line \(assignment.line) of \(lineCount)")
        }
        let written = write(file)
        let reparsed = try? KeyValueFile(parsing: written)
        precondition(reparsed.map(withoutLines) == withoutLines(file), "assignments change when written:\n\(written)")
        let crlfFile = try? KeyValueFile(parsing: crlf)
        precondition(crlfFile == file, "CRLF line ends change the assignments")
    } catch {
        precondition((1...lineCount).contains(error.line), "syntax error on line \(error.line) of \(lineCount)")
        let crlfError = (try? KeyValueFile(parsing: crlf)).map { _ in "no error" } ?? "error"
        precondition(crlfError == "error", "CRLF line ends hide a syntax error")
    }

    let outcome = Result { () throws(ConfigurationError) in try ConfigurationFile.parse(text, file: "fuzz.conf") }
    let crlfOutcome = Result { () throws(ConfigurationError) in try ConfigurationFile.parse(crlf, file: "fuzz.conf") }
    switch outcome {
    case .success(let configuration):
        precondition((try? crlfOutcome.get()) == configuration, "CRLF line ends change the configuration")
        let name = configuration.systemMask.name
        let reparsed = try? InterfaceOrientationMask(parsing: name)
        precondition(reparsed == configuration.systemMask, "mask \(configuration.systemMask.rawValue) prints as \(name.debugDescription), which does not parse back")
    case .failure(let error):
        precondition(error.file == "fuzz.conf", "error without the file name: \(error)")
        if let line = error.line { precondition((1...lineCount).contains(line), "error on line \(line) of \(lineCount): \(error)") }
        guard case .failure(let crlfError) = crlfOutcome else { fatalError("CRLF line ends hide the error \(error)") }
        precondition(crlfError.line == error.line && crlfError.key == error.key, "CRLF line ends move the error \(error) to \(crlfError)")
    }
    return 0
}

/// The assignments as a file, every value quoted so that its exact text survives.
private func write(_ file: KeyValueFile) -> String {
    var text = ""
    var section: String?
    for assignment in file.assignments {
        if assignment.section != section, let name = assignment.section {
            text += "[\(name)]\n"
            section = name
        }
        text += "\(assignment.key) = \"\(assignment.value)\"\n"
    }
    return text
}

private func withoutLines(_ file: KeyValueFile) -> [KeyValueFile.Assignment] {
    file.assignments.map { assignment in
        var assignment = assignment
        assignment.line = 0
        return assignment
    }
}
