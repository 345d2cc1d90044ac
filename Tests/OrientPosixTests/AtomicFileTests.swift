import Foundation
import SystemPackage
import Testing

import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

@Suite("Atomic file writing")
struct AtomicFileTests {
    @Test("The temporary file sits beside the target, hidden and named for the process")
    func temporaryName() {
        #expect(AtomicFile.temporaryName(for: "docs/plot.svg", process: 42) == "docs/.plot.svg.42.tmp")
        #expect(AtomicFile.temporaryName(for: "plot.svg", process: 42) == ".plot.svg.42.tmp")
    }

    @Test("A temporary file is told apart from other names, and its writer's process read from it")
    func temporaryWriter() {
        #expect(AtomicFile.writer(ofTemporary: ".state.4242.tmp", for: "state") == 4242)
        let own = AtomicFile.temporaryName(for: "orientd.state", process: 7)
        #expect(AtomicFile.writer(ofTemporary: own, for: "orientd.state") == 7)
        #expect(AtomicFile.writer(ofTemporary: "state", for: "state") == nil)
        #expect(AtomicFile.writer(ofTemporary: ".state.tmp", for: "state") == nil)
        #expect(AtomicFile.writer(ofTemporary: ".state.12x.tmp", for: "state") == nil)
        #expect(AtomicFile.writer(ofTemporary: ".other.12.tmp", for: "state") == nil)
    }

    @Test("A write replaces the file whole and leaves nothing else in the folder, durable or not")
    func replaces() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/state"
        try AtomicFile.write("first\n", to: path)
        #expect(try contents(path) == "first\n")
        try AtomicFile.write(bytes: Array("second\n".utf8), to: path, durable: true)
        #expect(try contents(path) == "second\n")
        #expect(try entries(folder) == ["state"])
    }

    @Test("A reader that opened the old file reads it whole after the write: the new one is another file")
    func readerKeepsOldFile() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/state"
        let old = String(repeating: "old ", count: 5000)
        try AtomicFile.write(old, to: path)
        let reader = try FileDescriptor.open(path, .readOnly)
        defer { try? reader.close() }

        try AtomicFile.write("new", to: path)

        var bytes = [UInt8](repeating: 0, count: old.utf8.count + 1)
        let count = try bytes.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(String(decoding: bytes[..<count], as: UTF8.self) == old)
        #expect(try contents(path) == "new")
    }

    @Test("The new file's mode is the one asked for, less the umask")
    func permissions() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/state"
        try AtomicFile.write("x", to: path, permissions: [.ownerReadWrite, .groupRead, .otherRead])
        var status = stat()
        try #require(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o644 & ~(try processUmask()))
    }

    @Test("A folder that does not exist: cannot create, naming the file and the reason")
    func missingFolder() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/missing/state"
        #expect {
            try AtomicFile.write("x", to: path)
        } throws: { error in
            guard let failure = error as? AtomicFile.Failure else { return false }
            return failure.cannotCreate && failure.path == path && failure.errno == .noSuchFileOrDirectory
                && failure.description == "\(path): cannot write: \(Errno.noSuchFileOrDirectory)"
        }
    }

    @Test("A target that cannot be replaced (a folder) fails and the temporary file is removed")
    func renameFails() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let target = folder + "/state"
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect {
            try AtomicFile.write("x", to: target)
        } throws: { error in
            (error as? AtomicFile.Failure)?.cannotCreate == true
        }
        #expect(try entries(folder) == ["state"])
    }

    @Test("A temporary file left by a killed process that had this one's id is replaced")
    func staleTemporary() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/state"
        let stale = AtomicFile.temporaryName(for: path, process: getpid())
        try "half writ".write(toFile: stale, atomically: false, encoding: .utf8)
        try AtomicFile.write("whole", to: path)
        #expect(try contents(path) == "whole")
        #expect(try entries(folder) == ["state"])
    }

    /// The umask, from /proc rather than umask(2), which would change it for every test running meanwhile.
    private func processUmask() throws -> mode_t {
        let line = try contents("/proc/self/status").split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return try #require(line.flatMap { mode_t($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) })
    }
}
