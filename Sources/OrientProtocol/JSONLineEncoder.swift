/// Encodes a value as one line of JSON, its members in the order its `encode(to:)` writes them.
///
/// Foundation's JSONEncoder writes an object's members in hash order, which differs from one process to the
/// next, or sorted by name; the daemon's lines keep the order PROTOCOL.md shows, which clients print (`--json`)
/// and match on (`{"event":`). So the messages' own `encode(to:)` is the one definition of their shape, and this
/// encoder writes it as it comes: integers without a fraction, other numbers in the shortest form that reads back
/// exactly, no NaN or infinity (JSON has none: they are null), strings escaped per RFC 8259.
public enum JSONLineEncoder {
    /// The value as one JSON text followed by a newline: one line of the protocol.
    public static func line<T: Encodable>(_ value: T) throws -> String {
        let encoder = LineEncoder(codingPath: [])
        try value.encode(to: encoder)
        var text = ""
        (encoder.value ?? .object(JSONObject())).write(to: &text)
        return text + "\n"
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
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

    public static func quoted(_ value: String) -> String {
        var text = ""
        appendQuoted(value, to: &text)
        return text
    }
}

/// An encoded value: a scalar already in its JSON spelling, or a container still being filled.
private enum JSONValue {
    case scalar(String)
    case object(JSONObject)
    case array(JSONArray)

    func write(to text: inout String) {
        switch self {
        case .scalar(let spelled): text += spelled
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                JSONLineEncoder.appendQuoted(member.key, to: &text)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        case .array(let array):
            text += "["
            for (index, element) in array.elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        }
    }
}

/// Containers are shared by reference, so a nested one can be filled after it is placed.
private final class JSONObject {
    var members: [(key: String, value: JSONValue)] = []

    func set(_ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
    }
}

private final class JSONArray {
    var elements: [JSONValue] = []
}

private final class LineEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var value: JSONValue?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// The object this encoder writes, the same one however often it is asked for: a message writes its own
    /// members, then has a state write its members into the same object.
    func object() -> JSONObject {
        if case .object(let object) = value { return object }
        let object = JSONObject()
        value = .object(object)
        return object
    }

    func array() -> JSONArray {
        if case .array(let array) = value { return array }
        let array = JSONArray()
        value = .array(array)
        return array
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: object(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: array(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// `value` as JSON: scalars directly, anything else through its own `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> JSONValue {
        switch value {
        case let text as String: return .scalar(JSONLineEncoder.quoted(text))
        case let flag as Bool: return .scalar(flag ? "true" : "false")
        case let number as Double: return .scalar(JSONLineEncoder.number(number))
        case let number as Int: return .scalar(String(number))
        // The other scalars encode themselves into a single-value container, which would come back here.
        case let number as Float: return .scalar(JSONLineEncoder.number(Double(number)))
        case let number as any BinaryInteger: return .scalar(String(describing: number))
        default:
            let encoder = LineEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.value ?? .object(JSONObject())
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { object.set(key.stringValue, .scalar("null")) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try LineEncoder.encode(value, at: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObject()
        object.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        object.set(key.stringValue, .array(nested))
        return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = LineEncoder(codingPath: codingPath)
        let nested = encoder.object()
        object.set(name, .object(nested))
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONArray
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

    mutating func encodeNil() { array.elements.append(.scalar("null")) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try LineEncoder.encode(value, at: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObject()
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        array.elements.append(.array(nested))
        return UnkeyedContainer(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = LineEncoder(codingPath: codingPath)
        array.elements.append(.object(encoder.object()))
        return encoder
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: LineEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.value = .scalar("null") }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.value = try LineEncoder.encode(value, at: codingPath)
    }
}
