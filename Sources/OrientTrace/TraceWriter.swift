import OrientCore
import SystemPackage

/// Writes a trace file line by line, each line written through to the file at once, so that a recording that is
/// interrupted (Ctrl-C, a crash, a pulled plug) is still a valid trace up to its last sample.
///
/// The columns are fixed by the preamble, written first: a trace of the display alone is v1, exactly as before
/// v2 existed, one with the base's readings too is v2, and one with a kernel hinge sensor's angle is v3.
public final class TraceWriter {
    public let path: String
    public let columns: TraceColumns
    private let descriptor: FileDescriptor
    private var lastTime: Double?

    /// Creates (or truncates) `path` and writes the preamble.
    /// - Parameter columns: `.displayAndBase` to record the base sensor too, those with a hinge to record a kernel
    ///   hinge sensor's angle; by default, the base's columns when the metadata has a base mount matrix
    ///   (``TraceFormat/columns(for:)``).
    public init(path: String, metadata: TraceMetadata, columns: TraceColumns? = nil) throws(TraceError) {
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw TraceError(file: path, line: nil, kind: .cannotOpen((error as? Errno) ?? .ioError))
        }
        self.path = path
        self.columns = columns ?? TraceFormat.columns(for: metadata)
        try write(TraceFormat.preamble(metadata, columns: self.columns))
    }

    deinit {
        try? descriptor.close()
    }

    /// Appends a sample. One whose time does not increase after rounding to the format's microseconds is
    /// skipped, so the file always reads back; so is one without a base reading in a trace with the base's
    /// columns, or without a hinge angle in one with the hinge's, since every line must fill them. A sample's
    /// readings the columns do not have are left out. Returns whether it was written.
    @discardableResult
    public func append(_ sample: AccelSample) throws(TraceError) -> Bool {
        var sample = sample
        if !columns.hasBase { sample.base = nil } else if sample.base == nil { return false }
        if !columns.hasHinge { sample.hinge = nil } else if sample.hinge == nil { return false }
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
