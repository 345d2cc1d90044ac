import Testing

#if canImport(Glibc)
import Glibc
#endif

import OrientPosix

@Suite("Giving back start-up pages")
struct ResidentPagesTests {
    /// Four mappings as a 6.x kernel writes them: code, relocated constants, data, and the heap.
    static let smaps = """
        55d0c8a00000-55d0c8e00000 r-xp 00383000 fe:00 16687362                   /usr/bin/orientd
        Size:               4096 kB
        Rss:                1848 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me
        55d0c8e00000-55d0c8e85000 r--p 01062000 fe:00 16687362                   /usr/bin/orientd
        Size:                532 kB
        Rss:                 532 kB
        Anonymous:           532 kB
        55d0c8e85000-55d0c90c5000 rw-p 010e6000 fe:00 16687362                   /usr/bin/orientd
        Rss:                1436 kB
        Anonymous:           180 kB
        7fc0a1876000-7fc0a1889000 r--p 001e8000 fe:00 333420                     /usr/lib/x86_64-linux-gnu/libicuuc.so.72.1
        Rss:                  76 kB
        Anonymous:             0 kB
        56450b795000-56450b7b6000 rw-p 00000000 00:00 0                          [heap]
        Rss:                  20 kB
        Anonymous:            20 kB
        7ffc73300000-7ffc73302000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   8 kB
        Anonymous:             0 kB
        """

    @Test("smaps is read into mappings: range, permissions, file and the two counts")
    func parse() {
        let mappings = ProcessMapping.parse(smaps: Self.smaps)
        #expect(mappings.count == 6)
        #expect(mappings.first == ProcessMapping(
            start: 0x55d0_c8a0_0000, end: 0x55d0_c8e0_0000, permissions: "r-xp", inode: 16_687_362,
            path: "/usr/bin/orientd", residentKiB: 1848, anonymousKiB: 0))
        #expect(mappings.map(\.residentKiB) == [1848, 532, 1436, 76, 20, 8])
        #expect(mappings[4].path == "[heap]")
    }

    @Test("Only read-only file pages that were never written are given back")
    func choice() {
        let chosen = ProcessMapping.parse(smaps: Self.smaps).filter(\.isRereadableFromFile).map(\.permissions)
        // Code and a library's constants; not the relocated constants (the file's bytes are not what the process
        // wrote there), not data, not the heap, not the vdso (no file).
        #expect(chosen == ["r-xp", "r--p"])
        #expect(ProcessMapping.parse(smaps: Self.smaps).filter(\.isRereadableFromFile).map(\.residentKiB) == [1848, 76])
    }

    @Test("A header that cannot be read is skipped with its fields; unknown fields are ignored")
    func damaged() {
        let text = """
            zz-55 r-xp 0 fe:00 1 /bin/x
            Rss:                 40 kB
            1000-2000 r--p 00000000 fe:00 7 /lib/y
            Rss:                  4 kB
            THPeligible:    0
            ProtectionKey:         0
            """
        let mappings = ProcessMapping.parse(smaps: text)
        #expect(mappings.map(\.path) == ["/lib/y"])
        #expect(mappings.map(\.residentKiB) == [4])
    }

    @Test("A path with spaces is kept whole; shared or nameless mappings are never given back")
    func pathsAndSharing() {
        let text = """
            1000-2000 r--p 00000000 fe:00 7                          /opt/my app/lib x.so
            Rss:                  4 kB
            2000-3000 r--s 00000000 fe:00 8                          /dev/shm/shared
            Rss:                  4 kB
            3000-4000 r--p 00000000 00:00 0
            Rss:                  4 kB
            """
        let mappings = ProcessMapping.parse(smaps: text)
        #expect(mappings.map(\.path) == ["/opt/my app/lib x.so", "/dev/shm/shared", ""])
        #expect(mappings.map(\.isRereadableFromFile) == [true, false, false])
    }

    @Test("Pages of a mapped file are dropped from the process and read back unchanged at the next touch")
    func releaseOwnPages() throws {
        // A file of its own, mapped private and read-only as code is, and read whole so that it is resident.
        let path = "/tmp/orientd-resident-\(getpid())"
        let size = 1 << 20
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        try #require(bytes.withUnsafeBytes { write(fd, $0.baseAddress, size) } == size)
        let mapped = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0))
        try #require(mapped != MAP_FAILED)
        defer { munmap(mapped, size) }
        let view = UnsafeRawBufferPointer(start: mapped, count: size)
        #expect(view.reduce(0) { $0 &+ Int($1) } == bytes.reduce(0) { $0 &+ Int($1) })
        #expect(residentPages(mapped, size) == size / 4096)

        let released = try ResidentPages.releaseRereadable()

        #expect(released.mappings >= 1)
        #expect(released.residentKiB >= size / 1024)
        #expect(residentPages(mapped, size) == 0, "the mapping's pages are no longer the process's")
        #expect(Array(view) == bytes, "and read back from the file as they were")
    }

    /// How many of the mapping's pages the process has mapped now (mincore would count the page cache's).
    private func residentPages(_ start: UnsafeMutableRawPointer, _ size: Int) -> Int {
        let address = UInt(bitPattern: start)
        let mapping = (try? ResidentPages.ownMappings())?.first { $0.start == address }
        return (mapping?.residentKiB ?? -4) / 4
    }
}
