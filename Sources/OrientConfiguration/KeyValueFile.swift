/// The syntax of orientd.conf, in the style of systemd's own configuration files (logind.conf and friends):
///
/// ```
/// # a comment (also ;), on a line of its own
/// mask = all-but-upside-down
/// socket-mode = "0660"
///
/// [classifier]
/// settle-time = 0.06
/// ```
///
/// Assignments before the first `[section]` header are top-level. A value is the rest of the line after `=`,
/// trimmed; one pair of surrounding double quotes is removed. A `#` after white space, outside double quotes,
/// starts a comment to the end of the line (`mask = landscape  # for the dock`), so a value may still hold a `#`
/// of its own (`/tmp/state#1`, or anything quoted). A key set twice is an error rather than a silent override.
///
/// The reader works on bytes (UTF-8), so `\r\n` line ends and any character in a value are handled alike.
/// It is hand-written because the Swift parsers available here for richer formats (YAML through Yams) link all of
/// Foundation and ICU into the daemon, several megabytes of resident memory for a file read once.
public struct KeyValueFile: Sendable, Equatable {
    public struct Assignment: Sendable, Equatable {
        /// `nil` before the first section header.
        public var section: String?
        public var key: String
        public var value: String
        /// 1-based.
        public var line: Int
    }

    public var assignments: [Assignment] = []

    /// A syntax problem and its 1-based line.
    public struct SyntaxError: Error, Equatable {
        public var line: Int
        public var message: String
    }

    public init(parsing text: String) throws(SyntaxError) {
        var section: String?
        var firstLine: [String: Int] = [:]  // "section.key" → where it was set
        var lineNumber = 0
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Self.trimmed(rawLine)
            guard let first = line.first, first != UInt8(ascii: "#"), first != UInt8(ascii: ";") else { continue }

            if first == UInt8(ascii: "[") {
                guard line.last == UInt8(ascii: "]"), line.count > 2 else {
                    throw SyntaxError(line: lineNumber, message: "expected a section header such as [classifier]")
                }
                let name = Self.trimmed(line.dropFirst().dropLast())
                guard Self.isName(name) else {
                    throw SyntaxError(line: lineNumber, message: "\"\(String(decoding: name, as: UTF8.self))\" is not a section name")
                }
                section = String(decoding: name, as: UTF8.self)
                continue
            }

            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw SyntaxError(line: lineNumber, message: "expected key = value")
            }
            let keyBytes = Self.trimmed(line[..<equals])
            guard Self.isName(keyBytes) else {
                let shown = String(decoding: keyBytes, as: UTF8.self)
                throw SyntaxError(line: lineNumber, message: shown.isEmpty ? "a key is missing before =" : "\"\(shown)\" is not a key name")
            }
            let key = String(decoding: keyBytes, as: UTF8.self)
            let value = Self.unquoted(Self.trimmed(Self.withoutComment(line[line.index(after: equals)...])))
            let qualified = (section.map { $0 + "." } ?? "") + key
            if let earlier = firstLine[qualified] {
                throw SyntaxError(line: lineNumber, message: "\(qualified) is already set at line \(earlier)")
            }
            firstLine[qualified] = lineNumber
            assignments.append(Assignment(section: section, key: key, value: String(decoding: value, as: UTF8.self), line: lineNumber))
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var bytes = bytes
        while let first = bytes.first, isBlank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isBlank(last) { bytes = bytes.dropLast() }
        return bytes
    }

    /// The text before a trailing comment: a `#` that follows white space, outside double quotes.
    private static func withoutComment(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var quoted = false
        var previous: UInt8?
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, byte == UInt8(ascii: "#"), let previous, isBlank(previous) { return bytes[..<index] }
            previous = byte
        }
        return bytes
    }

    private static func unquoted(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let quote = UInt8(ascii: "\"")
        guard bytes.count >= 2, bytes.first == quote, bytes.last == quote else { return bytes }
        return bytes.dropFirst().dropLast()
    }

    /// Letters, digits, `-` and `_`: what keys and sections are made of.
    private static func isName(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
