import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Gives back the pages of code and constants that the process no longer runs.
///
/// A daemon touches most of its code once, at start (argument parsing, configuration, the Swift runtime's first
/// look-ups, the libraries' loading), and the kernel maps the 64 KiB around every page touched. Those pages
/// would stay counted in the daemon's resident set for as long as it runs. Dropped here, what the daemon runs
/// afterwards comes back at its next touch, from the page cache, and the rest is left to the cache, which the
/// kernel empties first when memory runs short. The release build packs the code that serves clients together
/// (its link order, `make order-file`), so what comes back is that code and little else.
package enum ResidentPages {
    package struct Released: Equatable, Sendable {
        /// Mappings whose pages were dropped.
        package var mappings: Int
        /// How much of them was resident, in KiB.
        package var residentKiB: Int
    }

    /// Drops the resident pages of every mapping that ``ProcessMapping/isRereadableFromFile``; the others (the
    /// heap, stacks, data written since start) are never touched.
    package static func releaseRereadable() throws(Errno) -> Released {
        var released = Released(mappings: 0, residentKiB: 0)
        for mapping in try ownMappings() where mapping.isRereadableFromFile && mapping.residentKiB > 0 {
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
            if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                released.mappings += 1
                released.residentKiB += mapping.residentKiB
            }
        }
        return released
    }

    /// This process's mappings, from /proc/self/smaps read through a small buffer on the stack: this runs in a
    /// daemon that wants its heap small, and a buffer grown to the file's size (100 KiB and more) would raise
    /// glibc's thresholds for keeping freed memory.
    package static func ownMappings() throws(Errno) -> [ProcessMapping] {
        let fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        defer { close(fd) }
        var parser = ProcessMapping.SmapsParser()
        var partial: [UInt8] = []
        let failure: Errno? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8192) { buffer in
            while true {
                let count = read(fd, buffer.baseAddress, buffer.count)
                if count < 0 { if errno == EINTR { continue } else { return Errno(rawValue: errno) } }
                if count == 0 { return nil }
                var lineStart = 0
                for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                    partial.append(contentsOf: buffer[lineStart..<index])
                    parser.consume(Substring(decoding: partial, as: UTF8.self))
                    partial.removeAll(keepingCapacity: true)
                    lineStart = index + 1
                }
                partial.append(contentsOf: buffer[lineStart..<count])
            }
        }
        if let failure { throw failure }
        return parser.finish()
    }
}
