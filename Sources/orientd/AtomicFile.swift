import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole file so that readers see the old content or the new, never a part: a temporary file beside
/// it, written and flushed, then renamed over it. On failure the temporary file is removed.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        /// Whether the file could not be created at all (EX_CANTCREAT), rather than written (EX_IOERR).
        let cannotCreate: Bool
        let path: String
        let errno: Errno

        var description: String { "\(path): cannot write: \(errno)" }
    }

    static func write(_ text: String, to path: String) throws(Failure) {
        // rename is atomic only within a filesystem, hence a temporary file in the same directory.
        let temporary = FilePath(temporaryName(for: path, process: getpid()))
        let descriptor: FileDescriptor
        do {
            descriptor = try openExclusively(temporary)
        } catch {
            throw Failure(cannotCreate: true, path: path, errno: error)
        }
        do {
            _ = try descriptor.writeAll(text.utf8)
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
    }

    /// Creates the file, mode 0666 less the umask as any new file. One left by a process that was killed while
    /// writing and had this one's id is stale, and is replaced.
    private static func openExclusively(_ path: FilePath) throws(Errno) -> FileDescriptor {
        let options: FileDescriptor.OpenOptions = [.create, .exclusiveCreate, .closeOnExec]
        let mode: FilePermissions = [.ownerReadWrite, .groupReadWrite, .otherReadWrite]
        for attempt in 0..<2 {
            do {
                return try FileDescriptor.open(path, .writeOnly, options: options, permissions: mode)
            } catch Errno.fileExists where attempt == 0 {
                unlink(path.string)
            } catch {
                throw (error as? Errno) ?? .ioError
            }
        }
        throw .fileExists
    }

    /// `dir/.name.PID.tmp` for `dir/name`: hidden, recognisably the file's own, and one per process.
    static func temporaryName(for path: String, process: Int32) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[...$0] } ?? ""
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        return directory + "." + name + ".\(process).tmp"
    }
}
