import SystemPackage

/// Reads a small file whole: a configuration file, the state file, a /proc entry. More than 1 MiB is refused
/// (`fileTooLarge`), so a wrong path (a device, a huge log) cannot take the daemon's memory.
package func readSmallFile(_ path: String) throws(Errno) -> [UInt8] {
    do {
        let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        return try fd.closeAfter {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
                if count == 0 { return bytes }
                bytes += chunk[0..<count]
                if bytes.count > 1 << 20 { throw Errno.fileTooLarge }
            }
        }
    } catch let error as Errno {
        throw error
    } catch {
        throw .ioError
    }
}

/// ``readSmallFile(_:)`` as UTF-8 text.
package func readTextFile(_ path: String) -> Result<String, Errno> {
    Result { () throws(Errno) in String(decoding: try readSmallFile(path), as: UTF8.self) }
}
