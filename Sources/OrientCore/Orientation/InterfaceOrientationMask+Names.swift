/// A mask name that could not be parsed.
public struct MaskParseError: Error, Equatable, CustomStringConvertible {
    public let input: String
    public let badName: String

    public var description: String {
        let names = InterfaceOrientationMask.named.map(\.name).joined(separator: ", ")
        if badName.isEmpty { return "empty orientation mask \"\(input)\"; expected one or more of: \(names), joined by |" }
        return "unknown orientation mask \"\(badName)\" in \"\(input)\"; expected one or more of: \(names), joined by |"
    }
}

extension InterfaceOrientationMask {
    /// Parses a mask name or a union of names such as `portrait|landscape`. White space around names is ignored.
    public init(parsing text: String) throws(MaskParseError) {
        var mask: InterfaceOrientationMask = []
        for part in text.split(separator: "|", omittingEmptySubsequences: false) {
            let name = part.trimmingWhitespace()
            guard let named = Self.named.first(where: { $0.name == name }) else {
                throw MaskParseError(input: text, badName: String(name))
            }
            mask.formUnion(named.mask)
        }
        self = mask
    }

    /// The mask as names: the named mask when one matches exactly, else a `|`-joined union, `none` when empty.
    public var name: String {
        if isEmpty { return "none" }
        var remaining = self
        var parts: [String] = []
        for (name, mask) in Self.named where !mask.isEmpty && remaining.isSuperset(of: mask) {
            parts.append(name)
            remaining.subtract(mask)
        }
        return parts.joined(separator: "|")
    }
}

extension InterfaceOrientationMask: CustomStringConvertible {
    public var description: String { name }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, carriage returns and newlines.
    ///
    /// Works on unicode scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n", and a
    /// combining mark after a space merges with it into one Character that is not a space.
    package func trimmingWhitespace() -> SubSequence {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else {
            return self[endIndex..<endIndex]
        }
        return self[first..<scalars.index(after: last)]
    }
}
