import OrientCore
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Reads a trace file as a stream of samples, a chunk at a time, so a trace of hours is never loaded whole.
///
/// Opening reads up to the header row, so ``metadata`` (the mount matrices above all) and ``columns`` (whether
/// samples carry the base's reading and the hinge angle) are known before the first sample. `-` reads standard input.
public final class TraceReader {
    /// The name used in error messages: the path, or `<stdin>`.
    public let name: String
    public var metadata: TraceMetadata { parser.metadata }
    /// Whether every sample carries the base sensor's reading too (`hasBase`), and the hinge angle (`hasHinge`).
    public var columns: TraceColumns { parser.columns }

    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    private var parser = TraceLineParser()
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEndOfFile = false
    private var lineNumber = 0
    /// A sample read while looking for the header, handed out first.
    private var pending: AccelSample?

    public static let chunkSize = 64 * 1024
    /// A longer line is an error, not a reason to grow memory without bound.
    public static let maximumLineLength = 1 << 20

    /// Whether the trace is a regular file, whose reads never wait; a pipe's (standard input, a named pipe) wait
    /// for the writer.
    public var isRegularFile: Bool {
        var status = stat()
        return fstat(descriptor.rawValue, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Opens `path` and reads its metadata.
    /// - Throws: ``TraceError`` when the file cannot be opened or read, or its preamble is malformed.
    public init(path: String) throws(TraceError) {
        self.descriptor = try Self.open(path)
        self.name = path == "-" ? "<stdin>" : path
        self.ownsDescriptor = path != "-"
        self.buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        try readPreamble()
    }

    private static func open(_ path: String) throws(TraceError) -> FileDescriptor {
        if path == "-" { return .standardInput }
        do {
            return try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            throw TraceError(file: path, line: nil, kind: .cannotOpen((error as? Errno) ?? .ioError))
        }
    }

    deinit {
        if ownsDescriptor { try? descriptor.close() }
    }

    /// The next sample, or `nil` at the end of the trace.
    public func next() throws(TraceError) -> AccelSample? {
        if let sample = pending {
            pending = nil
            return sample
        }
        while true {
            guard let (lineStart, lineEnd) = try nextLine() else {
                do {
                    try parser.finish(lines: lineNumber)
                } catch {
                    throw error.inFile(name)
                }
                return nil
            }
            let number = lineNumber
            let result: Result<AccelSample?, TraceLineError> = buffer.withUnsafeBufferPointer { all in
                let line = UnsafeBufferPointer(rebasing: all[lineStart..<lineEnd])
                return Result { () throws(TraceLineError) in try parser.parse(line: line, number: number) }
            }
            switch result {
            case .success(let sample?): return sample
            case .success(nil): continue
            case .failure(let error): throw error.inFile(name)
            }
        }
    }

    /// Reads lines until the header row has been seen, keeping any sample that follows it.
    private func readPreamble() throws(TraceError) {
        while !parser.sawHeader {
            guard let sample = try next() else { return }
            pending = sample
            return
        }
    }

    /// The bounds of the next line in `buffer` (without its newline), reading more input as needed.
    private func nextLine() throws(TraceError) -> (Int, Int)? {
        while true {
            let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            let lineEnd = newline ?? end
            if lineEnd - start > Self.maximumLineLength {
                throw TraceError(
                    file: name, line: lineNumber + 1,
                    kind: .badData("line longer than \(Self.maximumLineLength) bytes")
                )
            }
            if let newline {
                defer { start = newline + 1 }
                lineNumber += 1
                return (start, newline)
            }
            if atEndOfFile {
                guard start < end else { return nil }
                defer { start = end }
                lineNumber += 1  // A last line without a newline.
                return (start, end)
            }
            try fill()
        }
    }

    /// Moves the unread bytes to the front of the buffer and reads another chunk after them.
    private func fill() throws(TraceError) {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { all in
                let unread = end - start
                if unread > 0 { all.baseAddress!.update(from: all.baseAddress! + start, count: unread) }
            }
            end -= start
            start = 0
        }
        if buffer.count - end < Self.chunkSize {
            // Grows only while a line is longer than the free space; `nextLine` caps the line length.
            buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        }
        let count: Int
        do {
            let writeFrom = end
            count = try buffer.withUnsafeMutableBytes { raw in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[writeFrom...]))
            }
        } catch let error as Errno {
            throw TraceError(file: name, line: nil, kind: .readFailed(error))
        } catch {
            throw TraceError(file: name, line: nil, kind: .readFailed(.ioError))
        }
        if count == 0 { atEndOfFile = true }
        end += count
    }
}
