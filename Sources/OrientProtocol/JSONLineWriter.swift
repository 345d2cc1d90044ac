/// Builds one JSON object on one line, escaping strings per RFC 8259.
///
/// Replies and events have fixed shapes, so writing them directly is simpler and much faster than a generic
/// encoder, which matters when one change goes out to a thousand subscribers.
public struct JSONLineWriter: Sendable {
    private var text = "{"
    private var first = true

    public init() {}

    public mutating func field(_ key: String, _ value: String) {
        startField(key)
        Self.appendQuoted(value, to: &text)
    }

    public mutating func field(_ key: String, _ value: Bool) {
        startField(key)
        text += value ? "true" : "false"
    }

    public mutating func field(_ key: String, _ value: Double) {
        startField(key)
        text += Self.number(value)
    }

    public mutating func field(_ key: String, _ value: Int) {
        startField(key)
        text += String(value)
    }

    /// Writes `null` for a missing value.
    public mutating func field(_ key: String, _ value: Double?) {
        guard let value else { return nullField(key) }
        field(key, value)
    }

    public mutating func field(_ key: String, _ value: Bool?) {
        guard let value else { return nullField(key) }
        field(key, value)
    }

    public mutating func field(_ key: String, _ value: String?) {
        guard let value else { return nullField(key) }
        field(key, value)
    }

    public mutating func field(_ key: String, _ id: RequestID) {
        switch id {
        case .number(let n): field(key, n)
        case .string(let s): field(key, s)
        }
    }

    /// A nested object.
    public mutating func field(_ key: String, object: JSONLineWriter) {
        startField(key)
        text += object.objectText
    }

    public mutating func nullField(_ key: String) {
        startField(key)
        text += "null"
    }

    /// The object followed by a newline: one line of the protocol.
    public var line: String { text + "}\n" }

    var objectText: String { text + "}" }

    private mutating func startField(_ key: String) {
        if !first { text += "," }
        first = false
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    /// Integers print without a fraction; other values print in the shortest form that reads back exactly.
    /// JSON has no NaN or infinity: those print as null.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `value` as a JSON string literal, quotes included.
    public static func quoted(_ value: String) -> String {
        var text = ""
        appendQuoted(value, to: &text)
        return text
    }

    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
