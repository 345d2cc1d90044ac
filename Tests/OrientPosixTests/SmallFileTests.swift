import Foundation
import SystemPackage
import Testing

import OrientPosix

@Suite("Small files")
struct SmallFileTests {
    @Test("A file is read whole, over many reads, up to exactly 1 MiB")
    func wholeFile() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        for size in [0, 1, 40_000, 1 << 20] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
            let path = folder + "/\(size)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try readSmallFile(path) == bytes, "\(size) bytes")
        }
    }

    @Test("A /proc file, whose size says 0, is read to its end")
    func procFile() throws {
        #expect(try String(decoding: readSmallFile("/proc/self/status"), as: UTF8.self).hasPrefix("Name:"))
    }

    @Test("More than 1 MiB is refused, as is what is no file to read")
    func refused() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let large = folder + "/large"
        try Data(count: (1 << 20) + 1).write(to: URL(fileURLWithPath: large))
        #expect(throws: Errno.fileTooLarge) { try readSmallFile(large) }
        #expect(throws: Errno.fileTooLarge) { try readSmallFile("/dev/zero") }
        #expect(throws: Errno.noSuchFileOrDirectory) { try readSmallFile(folder + "/missing") }
        #expect(throws: Errno.isDirectory) { try readSmallFile(folder) }
    }

    @Test("As text: UTF-8, with bytes that are not repaired rather than refused; errors as the file's errno")
    func text() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/text"
        try Data([0x61, 0xC3, 0xA9, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(readTextFile(path) == .success("aé\u{FFFD}\n"))
        #expect(readTextFile(folder + "/missing") == .failure(.noSuchFileOrDirectory))
    }
}
