/// One mapping of a process's address space, as `/proc/PID/smaps` describes it.
package struct ProcessMapping: Equatable, Sendable {
    package var start: UInt
    package var end: UInt
    /// `r`, `w`, `x` and `p` (private) or `s` (shared), as smaps writes them.
    package var permissions: String
    /// 0 for memory that is not a file's (the heap, stacks, `[vdso]`).
    package var inode: UInt64
    package var path: String
    /// Resident pages, in KiB.
    package var residentKiB: Int
    /// Pages that are the process's own copy rather than the file's: written, or never from a file. In KiB.
    package var anonymousKiB: Int

    package init(
        start: UInt, end: UInt, permissions: String, inode: UInt64, path: String, residentKiB: Int, anonymousKiB: Int
    ) {
        (self.start, self.end, self.permissions, self.inode, self.path) = (start, end, permissions, inode, path)
        (self.residentKiB, self.anonymousKiB) = (residentKiB, anonymousKiB)
    }

    /// A private, read-only mapping of a file that holds no page of its own: code and constants as the file has
    /// them. Dropping its pages loses nothing, since the next touch reads them again from the file. A mapping
    /// that was ever written (the dynamic loader's relocations, then made read-only) holds anonymous pages
    /// and is left alone: dropping those would bring back the file's unrelocated bytes.
    package var isRereadableFromFile: Bool {
        inode != 0 && path.hasPrefix("/") && permissions.hasPrefix("r") && !permissions.contains("w")
            && permissions.hasSuffix("p") && anonymousKiB == 0
    }

    /// The mappings of an smaps text. Lines it does not know are skipped, so a kernel that adds fields is no
    /// trouble; a mapping whose header cannot be read is skipped whole.
    package static func parse(smaps text: String) -> [ProcessMapping] {
        var parser = SmapsParser()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) { parser.consume(line) }
        return parser.finish()
    }

    /// Reads smaps line by line: a mapping header, then its `Name:   value kB` fields.
    package struct SmapsParser {
        private var mappings: [ProcessMapping] = []
        private var current: ProcessMapping?

        package init() {}

        package mutating func consume(_ line: Substring) {
            if let header = ProcessMapping.header(line) {
                if let done = current { mappings.append(done) }
                current = header
            } else if current != nil, let (name, kib) = ProcessMapping.field(line) {
                switch name {
                case "Rss": current?.residentKiB = kib
                case "Anonymous": current?.anonymousKiB = kib
                default: break
                }
            }
        }

        package mutating func finish() -> [ProcessMapping] {
            if let done = current { mappings.append(done) }
            current = nil
            return mappings
        }
    }

    /// `start-end perms offset dev inode [path]`; `nil` for a field line (`Name:   value kB`).
    private static func header(_ line: Substring) -> ProcessMapping? {
        let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard parts.count >= 5, let dash = parts[0].firstIndex(of: "-"),
              let start = UInt(parts[0][..<dash], radix: 16),
              let end = UInt(parts[0][parts[0].index(after: dash)...], radix: 16),
              parts[1].count == 4, let inode = UInt64(parts[4])
        else { return nil }
        let path = parts.count > 5 ? String(parts[5].drop(while: { $0 == " " })) : ""
        return ProcessMapping(
            start: start, end: end, permissions: String(parts[1]), inode: inode, path: path, residentKiB: 0,
            anonymousKiB: 0)
    }

    private static func field(_ line: Substring) -> (Substring, Int)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let value = line[line.index(after: colon)...].split(separator: " ")
        guard value.count == 2, value[1] == "kB", let kib = Int(value[0]) else { return nil }
        return (line[..<colon], kib)
    }
}
