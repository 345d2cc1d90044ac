import OrientCore

/// How a kind of sensor is offered on the socket.
public enum SocketOffer: Sendable, Equatable {
    /// The orientation itself: every state, event and `get` reply carries it.
    case orientation
    /// A reading a client asks for by name (`"readings":["light"]`), then sent to it as events and in `get` replies;
    /// `status` describes the sensor in full.
    case reading
    /// Not offered: asking for it is refused with this reason, and `status` says only whether one is present.
    case refused(reason: String)
}

extension SensorKind {
    /// How this kind is offered on the socket (PROTOCOL.md).
    public var socket: SocketOffer {
        switch self {
        case .accelerometer: .orientation
        case .light, .proximity: .reading
        case .compass: .refused(reason: "the compass is served on D-Bus only, where polkit decides each claim (a heading helps locate a person)")
        }
    }

    /// The kinds a client may ask for in `readings`, in the order messages list them.
    public static let readings = allCases.filter { $0.socket == .reading }
}

extension WireKey {
    /// The member that carries a one-value sensor's state (in a reply, and in `status`): its kind's name. The
    /// accelerometer has none: the orientation is the message itself.
    init?(_ kind: SensorKind) {
        switch kind {
        case .accelerometer: return nil
        case .light: self = .light
        case .proximity: self = .proximity
        case .compass: self = .compass
        }
    }
}
