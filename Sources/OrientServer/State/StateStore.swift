import FoundationEssentials
import OrientPosix
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes `state.json` in the state directory.
///
/// Writes go through ``AtomicFile``, durably: a temporary file in the same directory is written, fsync'd and
/// renamed over the old one, then the directory is fsync'd. A crash at any moment leaves either the old or the new state, never a mix.
public struct StateStore: Sendable {
    public let directory: String
    public var path: String { directory + "/state.json" }

    public init(directory: String) {
        self.directory = directory
    }

    /// The outcome of reading the state file at start.
    public enum LoadResult: Sendable, Equatable {
        case loaded(PersistentState)
        /// No file yet: defaults apply.
        case missing
        /// The file exists but is unreadable or malformed: reported, ignored, and replaced at the next write.
        case corrupt(String)
    }

    public func load() -> LoadResult {
        let data: [UInt8]
        do {
            data = try readSmallFile(path)
        } catch Errno.noSuchFileOrDirectory {
            return .missing
        } catch {
            return .corrupt("\(path): cannot read: \(error)")
        }
        do {
            return .loaded(try JSONDecoder().decode(PersistentState.self, from: Data(data)))
        } catch {
            return .corrupt("\(path): not a valid state file: \(error)")
        }
    }

    public func save(_ state: PersistentState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = Array(try encoder.encode(state)) + [UInt8(ascii: "\n")]
        do {
            try FileDescriptor.ensureDirectory(directory)
        } catch {
            // The file's own errors name it; this one would name nothing ("Permission denied").
            throw DirectoryFailure(directory: directory, reason: "\(error)")
        }
        try AtomicFile.write(bytes: bytes, to: path, permissions: [.ownerReadWrite, .groupRead, .otherRead], durable: true)
    }

    /// Removes the temporary files of writers that are gone: a daemon killed between creating its temporary file
    /// and renaming it leaves one behind, named for its PID, and each such crash would add another.
    /// A file whose PID is still running is left alone, as it may be mid-write.
    /// - Returns: the names removed.
    @discardableResult
    public func removeLeftovers() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { name in
            guard let pid = AtomicFile.writer(ofTemporary: name, for: "state.json"),
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { return false }
            return unlink(directory + "/" + name) == 0
        }
    }
}

/// The state directory could not be made.
public struct DirectoryFailure: Error, CustomStringConvertible {
    public var directory: String
    public var reason: String
    public var description: String { "\(directory): cannot create the folder: \(reason)" }
}

extension FileDescriptor {
    /// Creates `path` (and its parents) as directories if they do not exist.
    static func ensureDirectory(_ path: String) throws {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST { throw Errno(rawValue: errno) }
        }
    }
}
