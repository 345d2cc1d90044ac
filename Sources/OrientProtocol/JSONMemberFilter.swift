/// Removes named top-level members from a JSON object's text and keeps every other member byte for byte.
///
/// orientctl prints the daemon's replies for scripts without the request's `ok` and `id`. Decoding and
/// re-encoding would drop the fields it does not know (a newer daemon's) and reorder the rest; cutting the
/// text keeps them exactly as sent.
public enum JSONMemberFilter {
    /// `text` without the top-level members named in `names`, or `text` unchanged if it is not one JSON object.
    public static func removing(_ names: Set<String>, from text: String) -> String {
        let bytes = Array(text.utf8)
        var scanner = Scanner(bytes: bytes)
        var kept: [ArraySlice<UInt8>] = []
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return text }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "}")) {
            while true {
                scanner.skipSpace()
                let start = scanner.position
                guard let key = scanner.string() else { return text }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return text }
                scanner.skipSpace()
                guard scanner.value() else { return text }
                // The key is compared as written; the daemon never escapes the plain ASCII names it uses.
                if !names.contains(String(decoding: key, as: UTF8.self)) { kept.append(bytes[start..<scanner.position]) }
                scanner.skipSpace()
                if scanner.take(UInt8(ascii: ",")) { continue }
                guard scanner.take(UInt8(ascii: "}")) else { return text }
                break
            }
        }
        scanner.skipSpace()
        guard scanner.atEnd else { return text }
        var result: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in kept.enumerated() {
            if index > 0 { result.append(UInt8(ascii: ",")) }
            result += member
        }
        result.append(UInt8(ascii: "}"))
        return String(decoding: result, as: UTF8.self)
    }

    /// Just enough of a JSON reader to find where members begin and end: strings with their escapes, and
    /// nested objects and arrays, are skipped whole; numbers and literals run to the next delimiter.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A string; returns its bytes between the quotes, escapes left as they are.
        mutating func string() -> ArraySlice<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    return bytes[start..<position - 1]
                default: position += 1
                }
            }
            return nil
        }

        mutating func value() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    default: break
                    }
                    position += 1
                    if depth == 0 { return true }
                }
                return false
            default:
                let start = position
                while position < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[position])
                {
                    position += 1
                }
                return position > start
            }
        }
    }
}
