import FoundationEssentials
import OrientCore

/// One line the daemon sends: a reply to a request, an event, or an error. The daemon writes these with
/// ``line``; clients read them with ``decode(_:)``.
public enum ServerMessage: Sendable, Equatable {
    /// The reply to `get`, `subscribe`, `lock`, `unlock` and `set-mask`: a state, and for `get` whether it is
    /// fresh (the device orientation as the sensor reads now) and the one-value sensors it asked for.
    case state(id: RequestID?, OrientationState, fresh: Bool? = nil, readings: [ReadingState] = [])
    /// A successful reply with nothing to say (`unsubscribe`).
    case done(id: RequestID?)
    case status(id: RequestID?, StatusReport)
    /// Sent to subscribers after a change: `"event":"orientation"` whatever changed.
    case event(OrientationState)
    /// Sent to subscribers that asked for a one-value sensor: `"event":"light"` or `"event":"proximity"`.
    case reading(ReadingState)
    /// Sent to subscribers that asked for the tablet-mode switch, after the reply and at each change: exactly
    /// `{"event":"tablet-mode-switch","state":"on"}` (or `off`, `none`), so that its keeper need parse no more.
    case tabletModeSwitch(TabletModeSwitchState)
    /// A request refused; the id is the request's when it could be read.
    case error(ProtocolError)

    /// The message as one line of the protocol, newline included.
    public var line: String {
        // Nothing in these types' encode(to:) throws, and the line encoder throws only what they throw.
        try! JSONLineEncoder.line(self)
    }

    public static func decode(_ line: some Sequence<UInt8>) throws -> ServerMessage {
        try JSONDecoder().decode(ServerMessage.self, from: Data(line))
    }

    /// The request this answers; `nil` for events, and for replies to requests without an id.
    public var id: RequestID? {
        switch self {
        case .state(let id, _, _, _), .done(let id), .status(let id, _): id
        case .event, .reading, .tabletModeSwitch: nil
        case .error(let error): error.id
        }
    }
}

extension ServerMessage: Codable {
    static let orientationEvent = "orientation"
    static let tabletModeSwitchEvent = "tablet-mode-switch"

    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: WireKey.self)
        switch self {
        case .event(let state):
            try members.encode(Self.orientationEvent, forKey: .event)
            try state.encode(to: encoder)
        case .reading(let reading):
            try members.encode(reading.kind.rawValue, forKey: .event)
            try reading.encodeMembers(to: encoder)
        case .tabletModeSwitch(let state):
            try members.encode(Self.tabletModeSwitchEvent, forKey: .event)
            try members.encode(state, forKey: .state)
        case .state(let id, let state, let fresh, let readings):
            try members.encode(true, forKey: .ok)
            try members.encodeIfPresent(id, forKey: .id)
            try state.encode(to: encoder)
            try members.encodeIfPresent(fresh, forKey: .fresh)
            for reading in readings {
                guard let key = WireKey(reading.kind) else { continue }
                try members.encode(NestedReadingState(state: reading), forKey: key)
            }
        case .done(let id):
            try members.encode(true, forKey: .ok)
            try members.encodeIfPresent(id, forKey: .id)
        case .status(let id, let report):
            try members.encode(true, forKey: .ok)
            try members.encodeIfPresent(id, forKey: .id)
            try report.encode(to: encoder)
        case .error(let error):
            try members.encode(false, forKey: .ok)
            try members.encodeIfPresent(error.id, forKey: .id)
            var detail = members.nestedContainer(keyedBy: WireKey.self, forKey: .error)
            try detail.encode(error.code, forKey: .code)
            try detail.encode(error.message, forKey: .message)
        }
    }

    /// Tells the kinds apart by their members: `event` (`orientation`, a one-value sensor's kind, or
    /// `tablet-mode-switch`), else `ok` false (an error), else a state (`device`), a
    /// status (`version`), or neither. Members a newer daemon adds are ignored.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: WireKey.self)
        if let event = try members.decodeIfPresent(String.self, forKey: .event) {
            if let kind = SensorKind(rawValue: event), kind.socket == .reading {
                self = .reading(try ReadingState(kind: kind, members: decoder))
                return
            }
            if event == Self.tabletModeSwitchEvent {
                self = .tabletModeSwitch(try members.decode(TabletModeSwitchState.self, forKey: .state))
                return
            }
            guard event == Self.orientationEvent else {
                throw DecodingError.dataCorruptedError(
                    forKey: .event, in: members, debugDescription: "unknown event \"\(event)\"")
            }
            self = .event(try OrientationState(from: decoder))
            return
        }
        let ok = try members.decode(Bool.self, forKey: .ok)
        let id = try members.decodeIfPresent(RequestID.self, forKey: .id)
        if !ok {
            let detail = try members.nestedContainer(keyedBy: WireKey.self, forKey: .error)
            let code = try detail.decode(ErrorCode.self, forKey: .code)
            self = .error(ProtocolError(code, try detail.decode(String.self, forKey: .message), id: id))
        } else if members.contains(.device) {
            let fresh = try members.decodeIfPresent(Bool.self, forKey: .fresh)
            let readings = try SensorKind.readings.compactMap { kind -> ReadingState? in
                guard let key = WireKey(kind), members.contains(key) else { return nil }
                return try ReadingState(kind: kind, members: try members.nestedContainer(keyedBy: WireKey.self, forKey: key))
            }
            self = .state(id: id, try OrientationState(from: decoder), fresh: fresh, readings: readings)
        } else if members.contains(.version) {
            self = .status(id: id, try StatusReport(from: decoder))
        } else {
            self = .done(id: id)
        }
    }
}
