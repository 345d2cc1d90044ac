import FoundationEssentials
import OrientCore

/// What survives a restart: the rotation lock and a system mask set at run time.
public struct PersistentState: Sendable, Equatable, Codable {
    public var locked = false
    /// `nil` means the configured mask applies.
    public var mask: InterfaceOrientationMask?

    public init(locked: Bool = false, mask: InterfaceOrientationMask? = nil) {
        self.locked = locked
        self.mask = mask
    }

    enum CodingKeys: String, CodingKey {
        case version, locked, mask
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .version)
        guard version == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: c, debugDescription: "unsupported version \(version)")
        }
        locked = try c.decode(Bool.self, forKey: .locked)
        if let text = try c.decodeIfPresent(String.self, forKey: .mask) {
            do {
                mask = try InterfaceOrientationMask(parsing: text)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .mask, in: c, debugDescription: error.description)
            }
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(1, forKey: .version)
        try c.encode(locked, forKey: .locked)
        try c.encodeIfPresent(mask?.name, forKey: .mask)
    }
}
