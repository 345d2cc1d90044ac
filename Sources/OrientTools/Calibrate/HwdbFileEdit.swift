/// The text of a local hwdb file with calibrate's blocks put in: pure, so that what is written can be checked
/// before anything touches the disk.
///
/// A block replaces calibrate's own earlier block for the same match (its marker comment followed by that match
/// line, then the property lines), where it was; every other line, another program's or a person's blocks and
/// comments included, stays as it was. A block with no earlier one is appended after an empty line, since hwdb
/// records are separated by empty lines.
public enum HwdbFileEdit {
    /// What a file that does not exist yet starts with.
    public static let header = """
        # Local sensor quirks (systemd hwdb, see hwdb(7) and /usr/lib/udev/hwdb.d/60-sensor.hwdb).
        # orientd calibrate replaces the blocks after its own "# orientd calibrate:" comments, and nothing else.
        # After editing by hand: systemd-hwdb update && udevadm trigger -s iio
        """

    /// `existing`: the file's text, or `nil` when it does not exist.
    public static func applying(_ blocks: [HwdbBlock], to existing: String?) -> String {
        var lines =
            existing.map(splitLines) ?? header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for block in blocks {
            if let range = ownBlock(block.match, in: lines) {
                lines.replaceSubrange(range, with: block.lines)
            } else {
                while lines.last?.trimmingSpacesAndNewlines.isEmpty == true { lines.removeLast() }
                if !lines.isEmpty { lines.append("") }
                lines.append(contentsOf: block.lines)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines of calibrate's earlier block for `match`: the marker comment, the match line, and the property
    /// (indented) and comment lines up to the empty line or next record that ends it.
    static func ownBlock(_ match: HwdbMatch, in lines: [String]) -> Range<Int>? {
        var index = 0
        while index + 1 < lines.count {
            defer { index += 1 }
            guard lines[index].hasPrefix(HwdbBlock.marker), lines[index + 1].trimmingSpacesAndNewlines == match.line
            else { continue }
            var end = index + 2
            while end < lines.count, let first = lines[end].first, first == " " || first == "\t" { end += 1 }
            return index..<end
        }
        return nil
    }

    /// Lines without their terminators; a final newline adds no empty line.
    private static func splitLines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
