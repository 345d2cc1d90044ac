import OrientPosix
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a C library writes to standard error is caught around the calls that print, and the log is not.
///
/// Each test runs in a process of its own (an exit test): a capture takes the process's descriptor 2 for a while,
/// and in the test process other tests' loggers and Swift Testing's own report write to it meanwhile.
@Suite("Standard error captured around a library call")
struct StandardErrorTests {
    private static func writeToTwo(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Device and inode of what a descriptor is open on.
    private static func identity(_ descriptor: Int32) -> (UInt, UInt) {
        var info = stat()
        fstat(descriptor, &info)
        return (UInt(info.st_dev), UInt(info.st_ino))
    }

    @Test("Lines written to descriptor 2 in the call come back, a repeated line once, and descriptor 2 is restored")
    func capturesAndRestores() async {
        await #expect(processExitsWith: .success) {
            let before = Self.identity(2)
            let (result, lines) = StandardError.capturing { () -> Int in
                Self.writeToTwo("WARNING: High-speed mode not enabled\n")
                Self.writeToTwo("ERROR: Error during buffer disable: No such file or directory (2)\n")
                Self.writeToTwo("ERROR: Error during buffer disable: No such file or directory (2)\n")
                Self.writeToTwo("no newline at the end")
                return 42
            }
            #expect(result == 42)
            #expect(lines == [
                "WARNING: High-speed mode not enabled", "ERROR: Error during buffer disable: No such file or directory (2)",
                "no newline at the end",
            ])
            #expect(Self.identity(2) == before)
            #expect(StandardError.capturing { 0 }.1.isEmpty)
        }
    }

    @Test("The log's descriptor is a copy of the original standard error, not caught by a capture")
    func logDescriptorIsNotCaught() async {
        await #expect(processExitsWith: .success) {
            #expect(StandardError.logDescriptor != 2)
            let original = Self.identity(2)
            let (seen, lines) = StandardError.capturing { Self.identity(StandardError.logDescriptor) }
            #expect(seen == original)
            #expect(lines.isEmpty)
        }
    }

    @Test("A throwing call restores descriptor 2 too")
    func throwingRestores() async {
        await #expect(processExitsWith: .success) {
            struct Failure: Error {}
            let before = Self.identity(2)
            #expect(throws: Failure.self) {
                _ = try StandardError.capturing { () throws -> Int in
                    Self.writeToTwo("lost with the error\n")
                    throw Failure()
                }
            }
            #expect(Self.identity(2) == before)
        }
    }

    @Test("Captures from several threads at once each get their own lines, and descriptor 2 ends as it began")
    func concurrentCaptures() async {
        await #expect(processExitsWith: .success) {
            let before = Self.identity(2)
            let results = await withTaskGroup(of: (Int, [String]).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        StandardError.capturing { () -> Int in
                            Self.writeToTwo("thread \(index)\n")
                            usleep(1000)
                            return index
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for (index, lines) in results { #expect(lines == ["thread \(index)"]) }
            #expect(Self.identity(2) == before)
        }
    }
}
