import OrientCore

/// What a client is told of one kind of one-value sensor (one that ``SensorKind/socket`` offers as a reading): in a
/// reading event, and in a `get` reply that asked for it.
public struct ReadingState: Sendable, Hashable {
    public var kind: SensorKind
    /// Whether a sensor of this kind is there; `false` also when the daemon serves none (a replay).
    public var present: Bool
    /// The last value read (the light level filtered as on D-Bus); `nil` while none is present, or before its first
    /// reading.
    public var value: Reading?

    public init(kind: SensorKind, present: Bool, value: Reading? = nil) {
        self.kind = kind
        self.present = present
        self.value = value
    }

    public var level: Double? {
        if case .light(let level, _) = value { return level }
        return nil
    }

    public var unit: String? {
        if case .light(_, let unit) = value { return unit.rawValue }
        return nil
    }

    public var near: Bool? {
        if case .proximity(let near) = value { return near }
        return nil
    }
}

/// The members of a reading state, written into the object that carries it (an event, or a reply's `light`
/// object). Every member of its kind is always written, `null` when unknown, so that a client reads one shape.
extension ReadingState {
    func encodeMembers(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: WireKey.self)
        try members.encode(present, forKey: .present)
        try Self.encode(value, of: kind, into: &members)
    }

    init(kind: SensorKind, members decoder: any Decoder) throws {
        try self.init(kind: kind, members: decoder.container(keyedBy: WireKey.self))
    }

    init(kind: SensorKind, members: KeyedDecodingContainer<WireKey>) throws {
        self.init(
            kind: kind, present: try members.decode(Bool.self, forKey: .present),
            value: try Self.decodeValue(of: kind, from: members))
    }

    /// `level` and `unit` for light, `near` for proximity; nothing for a kind the socket does not carry readings of.
    static func encode(_ value: Reading?, of kind: SensorKind, into members: inout KeyedEncodingContainer<WireKey>) throws {
        let state = ReadingState(kind: kind, present: true, value: value)
        switch kind {
        case .light:
            try members.encode(state.level, forKey: .level)
            try members.encode(state.unit, forKey: .unit)
        case .proximity:
            try members.encode(state.near, forKey: .near)
        case .accelerometer, .compass:
            break
        }
    }

    static func decodeValue(of kind: SensorKind, from members: KeyedDecodingContainer<WireKey>) throws -> Reading? {
        switch kind {
        case .light:
            guard let level = try members.decodeIfPresent(Double.self, forKey: .level) else { return nil }
            let unit = try members.decodeIfPresent(String.self, forKey: .unit).map(LightUnit.init) ?? .lux
            return .light(level: level, unit: unit)
        case .proximity:
            return try members.decodeIfPresent(Bool.self, forKey: .near).map { .proximity(near: $0) }
        case .accelerometer, .compass:
            return nil
        }
    }
}

/// A reading state nested under its kind's name, as in a `get` reply: `"light":{"present":true,...}`.
struct NestedReadingState: Encodable {
    let state: ReadingState

    func encode(to encoder: any Encoder) throws { try state.encodeMembers(to: encoder) }
}
