import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole file so that readers see the old content or the new, never a part: a temporary file beside
/// it, written and flushed, then renamed over it. On failure the temporary file is removed.
///
/// The state file and `plot`'s output both go through here.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        /// Whether the file could not be created at all (EX_CANTCREAT), rather than written (EX_IOERR).
        public let cannotCreate: Bool
        public let path: String
        public let errno: Errno

        public var description: String { "\(path): cannot write: \(errno)" }
    }

    /// Any new file's mode, 0666 less the umask.
    public static let defaultPermissions: FilePermissions = [.ownerReadWrite, .groupReadWrite, .otherReadWrite]

    /// - Parameters:
    ///   - permissions: the new file's mode, less the umask.
    ///   - durable: also fsync the directory after the rename, so that the new file survives a crash: without
    ///     it, a power cut soon after may bring back the old one (never a mix).
    public static func write(
        _ text: String, to path: String, permissions: FilePermissions = defaultPermissions, durable: Bool = false
    ) throws(Failure) {
        try write(bytes: Array(text.utf8), to: path, permissions: permissions, durable: durable)
    }

    public static func write(
        bytes: [UInt8], to path: String, permissions: FilePermissions = defaultPermissions, durable: Bool = false
    ) throws(Failure) {
        // rename is atomic only within a filesystem, hence a temporary file in the same directory.
        let temporary = FilePath(temporaryName(for: path, process: getpid()))
        let descriptor: FileDescriptor
        do {
            descriptor = try openExclusively(temporary, permissions: permissions)
        } catch {
            throw Failure(cannotCreate: true, path: path, errno: error)
        }
        do {
            _ = try descriptor.writeAll(bytes)
            guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: Glibc.errno) }
            try descriptor.close()
        } catch {
            try? descriptor.close()
            unlink(temporary.string)
            throw Failure(cannotCreate: false, path: path, errno: (error as? Errno) ?? .ioError)
        }
        guard rename(temporary.string, path) == 0 else {
            let error = Errno(rawValue: Glibc.errno)
            unlink(temporary.string)
            throw Failure(cannotCreate: true, path: path, errno: error)
        }
        if durable {
            // The rename is durable only once the directory entry is.
            let directory = FilePath(path).removingLastComponent()
            do {
                let descriptor = try FileDescriptor.open(
                    directory.isEmpty ? "." : directory, .readOnly, options: [.directory, .closeOnExec])
                try descriptor.closeAfter { _ = fsync(descriptor.rawValue) }
            } catch {
                throw Failure(cannotCreate: false, path: path, errno: (error as? Errno) ?? .ioError)
            }
        }
    }

    /// Creates the file exclusively. One left by a process that was killed while writing and had this one's id
    /// is stale, and is replaced.
    private static func openExclusively(_ path: FilePath, permissions: FilePermissions) throws(Errno) -> FileDescriptor {
        let options: FileDescriptor.OpenOptions = [.create, .exclusiveCreate, .closeOnExec]
        for attempt in 0..<2 {
            do {
                return try FileDescriptor.open(path, .writeOnly, options: options, permissions: permissions)
            } catch Errno.fileExists where attempt == 0 {
                unlink(path.string)
            } catch {
                throw (error as? Errno) ?? .ioError
            }
        }
        throw .fileExists
    }

    /// `dir/.name.PID.tmp` for `dir/name`: hidden, recognisably the file's own, and one per process.
    public static func temporaryName(for path: String, process: Int32) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[...$0] } ?? ""
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        return directory + "." + name + ".\(process).tmp"
    }

    /// The process that wrote `entry`, when it is a temporary file of ``write(_:to:permissions:durable:)`` for a
    /// file named `name` in the same directory; `nil` for any other name.
    public static func writer(ofTemporary entry: String, for name: String) -> Int32? {
        let prefix = "." + name + ".", suffix = ".tmp"
        guard entry.hasPrefix(prefix), entry.hasSuffix(suffix) else { return nil }
        return Int32(entry.dropFirst(prefix.count).dropLast(suffix.count))
    }
}
