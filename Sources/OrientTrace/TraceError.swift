import SystemPackage

/// A trace that could not be read: the file could not be opened or read, or its content is malformed.
/// ``description`` names the file and, for bad content, the line: `walk.trace:12: wrong column count`.
public struct TraceError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file could not be opened (missing, a directory, no permission).
        case cannotOpen(Errno)
        case readFailed(Errno)
        /// The content breaks the format; the message says how.
        case badData(String)
    }

    public var file: String
    /// 1-based line number for bad data; `nil` for errors about the file as a whole.
    public var line: Int?
    public var kind: Kind

    public init(file: String, line: Int?, kind: Kind) {
        self.file = file
        self.line = line
        self.kind = kind
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        switch kind {
        case .cannotOpen(let errno): return "\(place): cannot open: \(errno)"
        case .readFailed(let errno): return "\(place): read failed: \(errno)"
        case .badData(let message): return "\(place): \(message)"
        }
    }
}

/// A malformed line, before the reader adds the file name.
public struct TraceLineError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }

    public func inFile(_ file: String) -> TraceError {
        TraceError(file: file, line: line, kind: .badData(message))
    }
}
