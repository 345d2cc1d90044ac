import OrientCore

/// A request line: `op`, `id`, and the fields its operation takes.
///
/// Decoding checks every known field's type and value and throws a ``ProtocolError`` that names the problem
/// (``RequestDecoder`` turns the JSON decoder's own errors into ones too). Unknown fields are ignored, so newer
/// clients can talk to older daemons.
extension Request: Codable {
    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: WireKey.self)
        try members.encode(operation.name, forKey: .op)
        try members.encodeIfPresent(id, forKey: .id)
        switch operation {
        case .get(let settings, let readings):
            try settings?.encode(to: encoder)
            try Self.encode(readings, into: &members)
        case .subscribe(let settings, let readings):
            try settings.encode(to: encoder)
            try Self.encode(readings, into: &members)
        case .setMask(let mask): try members.encode(mask?.name ?? Self.defaultMask, forKey: .mask)
        case .unsubscribe, .lock, .unlock, .status: break
        }
    }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: WireKey.self)
        // Every known field's type first, as one error for the first that is wrong, whatever the operation.
        let op = try members.decodeIfPresent(String.self, forKey: .op)
        let id = try members.decodeIfPresent(RequestID.self, forKey: .id)
        let fields = try SubscriptionFields(members)
        guard let op else { throw ProtocolError(.badRequest, "missing \"op\"", id: id) }
        do throws(ProtocolError) {
            self.init(id: id, try Self.operation(op, fields))
        } catch {
            var error = error
            error.id = id
            throw error
        }
    }

    /// `readings`, in a fixed order, and only when some are asked for: a request without is as it always was.
    private static func encode(_ readings: Set<SensorKind>, into members: inout KeyedEncodingContainer<WireKey>) throws {
        if !readings.isEmpty { try members.encode(readings.sorted().map(\.rawValue), forKey: .readings) }
    }

    /// `set-mask`'s word for the configured mask.
    static let defaultMask = "default"

    private static func operation(_ op: String, _ fields: SubscriptionFields) throws(ProtocolError) -> Operation {
        switch op {
        case "get":
            if fields.tabletModeSwitch != nil {
                throw ProtocolError(.badField, "\"tablet-mode-switch\" is for subscribe: its state comes as events")
            }
            // Without client settings, the system's view; with any, the view of a client that has them.
            let asClient = fields.mask != nil || fields.preferred != nil || fields.autorotate != nil
            return .get(asClient ? try fields.settings() : nil, readings: try fields.readingKinds())
        case "status": return .status
        case "lock": return .lock
        case "unlock": return .unlock
        case "unsubscribe": return .unsubscribe
        case "set-mask":
            guard let text = fields.mask else { throw ProtocolError(.badField, "set-mask needs \"mask\"") }
            return try .setMask(parsing: text)
        case "subscribe":
            return .subscribe(try fields.settings(), readings: try fields.readingKinds())
        default:
            let names = RequestDecoder.operations.joined(separator: ", ")
            throw ProtocolError(.unknownOperation, "unknown op \"\(op)\"; expected one of: \(names)")
        }
    }
}

extension Request.Operation {
    /// `set-mask` with its `mask` as written: a mask name or union, or `default` for the configured mask.
    public static func setMask(parsing text: String) throws(ProtocolError) -> Self {
        .setMask(text == Request.defaultMask ? nil : try SubscriptionFields.mask(text))
    }
}

/// A client's settings as written in `get` and `subscribe`: the mask always (its presence makes a `get` answer
/// as that client), the others when they differ from the defaults.
extension SubscriptionSettings: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: WireKey.self)
        try members.encode(mask.name, forKey: .mask)
        try members.encodeIfPresent(preferred, forKey: .preferred)
        if changes != .all { try members.encode(changes, forKey: .changes) }
        if !autorotate { try members.encode(autorotate, forKey: .autorotate) }
        if tabletModeSwitch { try members.encode(tabletModeSwitch, forKey: .tabletModeSwitch) }
    }
}

/// The client settings' fields of a request, type-checked, before their values are.
private struct SubscriptionFields {
    var mask: String?
    var preferred: String?
    var changes: String?
    var autorotate: Bool?
    var tabletModeSwitch: Bool?
    var readings: [String]?

    init(_ members: KeyedDecodingContainer<WireKey>) throws {
        mask = try members.decodeIfPresent(String.self, forKey: .mask)
        preferred = try members.decodeIfPresent(String.self, forKey: .preferred)
        changes = try members.decodeIfPresent(String.self, forKey: .changes)
        autorotate = try members.decodeIfPresent(Bool.self, forKey: .autorotate)
        tabletModeSwitch = try members.decodeIfPresent(Bool.self, forKey: .tabletModeSwitch)
        readings = try members.decodeIfPresent([String].self, forKey: .readings)
    }

    /// The one-value sensors asked for by name; a kind the socket does not offer is refused with the reason.
    func readingKinds() throws(ProtocolError) -> Set<SensorKind> {
        var kinds: Set<SensorKind> = []
        for name in readings ?? [] {
            switch SensorKind(rawValue: name)?.socket {
            case .reading:
                kinds.insert(SensorKind(rawValue: name)!)
            case .refused(let reason):
                throw ProtocolError(.badField, "\"readings\": \(reason)")
            case .orientation, nil:
                let names = SensorKind.readings.map(\.rawValue).joined(separator: " or ")
                throw ProtocolError(.badField, "\"readings\": unknown reading \"\(name)\"; expected \(names)")
            }
        }
        return kinds
    }

    func settings() throws(ProtocolError) -> SubscriptionSettings {
        var settings = SubscriptionSettings()
        if let mask { settings.mask = try Self.mask(mask) }
        if let preferred {
            do {
                settings.preferred = try InterfaceOrientation(parsingDrawable: preferred)
            } catch {
                throw ProtocolError(.badField, "\"preferred\": \(error)")
            }
        }
        if let changes {
            guard let filter = ChangeFilter(rawValue: changes) else {
                throw ProtocolError(.badField, "\"changes\": expected \"all\", \"interface\" or \"none\", got \"\(changes)\"")
            }
            settings.changes = filter
        }
        if let autorotate { settings.autorotate = autorotate }
        if let tabletModeSwitch { settings.tabletModeSwitch = tabletModeSwitch }
        return settings
    }

    static func mask(_ text: String) throws(ProtocolError) -> InterfaceOrientationMask {
        do {
            return try InterfaceOrientationMask(parsing: text)
        } catch {
            throw ProtocolError(.badField, "\"mask\": \(error.description)")
        }
    }
}
