import Foundation

/// One line of `orientd classify`'s output, whatever keys it holds.
struct PrintedChange: Decodable {
    let t: Double
    let keys: Set<String>
    let device: String?
    let interface: String?
    let posture: String?
    /// `.some(nil)` for `null`: the value became unknown.
    let tabletMode: Bool??
    let hingeAngle: Int??

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        func key(_ name: String) -> Key { Key(stringValue: name) }
        /// Absent, `null`, or a value of exactly this type (a Bool key does not take 1).
        func optional<T: Decodable>(_ name: String, _ type: T.Type) throws -> T?? {
            guard object.contains(key(name)) else { return nil }
            return try object.decodeNil(forKey: key(name)) ? .some(nil) : .some(try object.decode(T.self, forKey: key(name)))
        }
        t = try object.decode(Double.self, forKey: key("t"))
        keys = Set(object.allKeys.map(\.stringValue))
        device = try optional("device", String.self) ?? nil
        interface = try optional("interface", String.self) ?? nil
        posture = try optional("posture", String.self) ?? nil
        tabletMode = try optional("tablet-mode", Bool.self)
        hingeAngle = try optional("hinge-angle", Int.self)
    }

    static func all(_ stdout: String) throws -> [PrintedChange] {
        try stdout.split(separator: "\n").map { try JSONDecoder().decode(PrintedChange.self, from: Data($0.utf8)) }
    }
}
