import SystemPackage

/// Reads a small text file whole (configuration files; at most 1 MiB).
func readTextFile(_ path: String) -> Result<String, Errno> {
    do {
        let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        return try fd.closeAfter {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
                if count == 0 { break }
                bytes += chunk[0..<count]
                if bytes.count > 1 << 20 { throw Errno.fileTooLarge }
            }
            return .success(String(decoding: bytes, as: UTF8.self))
        }
    } catch let error as Errno {
        return .failure(error)
    } catch {
        return .failure(.ioError)
    }
}
