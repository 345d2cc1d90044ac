import OrientCore
import SystemPackage

/// Writes a trace file line by line, each line written through to the file at once, so that a recording that is
/// interrupted (Ctrl-C, a crash, a pulled plug) is still a valid trace up to its last sample.
public final class TraceWriter {
    public let path: String
    private let descriptor: FileDescriptor
    private var lastTime: Double?

    /// Creates (or truncates) `path` and writes the preamble.
    public init(path: String, metadata: TraceMetadata) throws(TraceError) {
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw TraceError(file: path, line: nil, kind: .cannotOpen((error as? Errno) ?? .ioError))
        }
        self.path = path
        try write(TraceFormat.preamble(metadata))
    }

    deinit {
        try? descriptor.close()
    }

    /// Appends a sample. One whose time does not increase after rounding to the format's microseconds is
    /// skipped, so the file always reads back. Returns whether it was written.
    @discardableResult
    public func append(_ sample: AccelSample) throws(TraceError) -> Bool {
        let rounded = (sample.time * 1e6).rounded() / 1e6
        if let lastTime, rounded <= lastTime { return false }
        lastTime = rounded
        try write(TraceFormat.line(sample))
        return true
    }

    private func write(_ text: String) throws(TraceError) {
        do {
            _ = try descriptor.writeAll(Array(text.utf8))
        } catch {
            throw TraceError(file: path, line: nil, kind: .readFailed((error as? Errno) ?? .ioError))
        }
    }
}
