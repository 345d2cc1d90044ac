import FoundationEssentials

/// Any line the daemon sends, decoded leniently for clients: every field optional.
public struct ServerMessage: Decodable, Sendable, Equatable {
    public struct ErrorDetail: Decodable, Sendable, Equatable {
        public var code: String
        public var message: String
    }

    /// The sensor as `status` describes it.
    public struct SensorInfo: Decodable, Sendable, Equatable {
        public var state: String?
        public var id: String?
        public var name: String?
        public var mode: String?
        public var rate: Double?
        public var location: String?
        public var mountMatrix: String?
        public var mountMatrixSource: String?
        public var mountMatrixRepaired: Bool?
        /// A convertible's base sensor; `nil` when there is none, or from an older daemon (see ``reportsBase``).
        public var base: BaseSensorInfo?
        /// Whether the daemon sent `base` at all (null included): older daemons do not.
        public var reportsBase: Bool

        enum CodingKeys: String, CodingKey {
            case state, id, name, mode, rate, location, base
            case mountMatrix = "mount-matrix"
            case mountMatrixSource = "mount-matrix-source"
            case mountMatrixRepaired = "mount-matrix-repaired"
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            state = try c.decodeIfPresent(String.self, forKey: .state)
            id = try c.decodeIfPresent(String.self, forKey: .id)
            name = try c.decodeIfPresent(String.self, forKey: .name)
            mode = try c.decodeIfPresent(String.self, forKey: .mode)
            rate = try c.decodeIfPresent(Double.self, forKey: .rate)
            location = try c.decodeIfPresent(String.self, forKey: .location)
            mountMatrix = try c.decodeIfPresent(String.self, forKey: .mountMatrix)
            mountMatrixSource = try c.decodeIfPresent(String.self, forKey: .mountMatrixSource)
            mountMatrixRepaired = try c.decodeIfPresent(Bool.self, forKey: .mountMatrixRepaired)
            reportsBase = c.contains(.base)
            base = try c.decodeIfPresent(BaseSensorInfo.self, forKey: .base)
        }
    }

    /// The base sensor as `status` describes it.
    public struct BaseSensorInfo: Decodable, Sendable, Equatable {
        public var id: String?
        public var name: String?
        public var path: String?
        public var mountMatrix: String?
        public var mountMatrixSource: String?
        public var mountMatrixRepaired: Bool?

        enum CodingKeys: String, CodingKey {
            case id, name, path
            case mountMatrix = "mount-matrix"
            case mountMatrixSource = "mount-matrix-source"
            case mountMatrixRepaired = "mount-matrix-repaired"
        }
    }

    public var ok: Bool?
    public var id: RequestID?
    public var event: String?
    public var error: ErrorDetail?
    public var device: String?
    public var interface: String?
    public var locked: Bool?
    public var mask: String?
    public var sensor: String?
    public var t: Double?
    /// In replies to `get`: whether the device orientation comes from the sensor as it reads now.
    public var fresh: Bool?
    /// A convertible's posture (`unknown` without a base sensor); absent from older daemons.
    public var posture: String?
    /// `nil` when unknown (sent as null) or not sent.
    public var tabletMode: Bool?
    /// Whole degrees; `nil` when unknown (sent as null) or not sent.
    public var hingeAngle: Double?
    public var version: String?
    public var uptime: Double?
    public var subscribers: Int?
    public var sampling: String?
    public var sensorInfo: SensorInfo?

    enum CodingKeys: String, CodingKey {
        case ok, id, event, error, interface, locked, mask, sensor, t, fresh, version, uptime, subscribers, sampling
        case device, posture
        case tabletMode = "tablet-mode"
        case hingeAngle = "hinge-angle"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ok = try c.decodeIfPresent(Bool.self, forKey: .ok)
        id = try c.decodeIfPresent(RequestID.self, forKey: .id)
        event = try c.decodeIfPresent(String.self, forKey: .event)
        error = try c.decodeIfPresent(ErrorDetail.self, forKey: .error)
        interface = try c.decodeIfPresent(String.self, forKey: .interface)
        locked = try c.decodeIfPresent(Bool.self, forKey: .locked)
        fresh = try c.decodeIfPresent(Bool.self, forKey: .fresh)
        mask = try c.decodeIfPresent(String.self, forKey: .mask)
        // `sensor` is the sensor state in states and events, and an object with details in `status`.
        if let text = try? c.decodeIfPresent(String.self, forKey: .sensor) {
            sensor = text
        } else {
            sensorInfo = try c.decodeIfPresent(SensorInfo.self, forKey: .sensor)
            sensor = sensorInfo?.state
        }
        t = try c.decodeIfPresent(Double.self, forKey: .t)
        version = try c.decodeIfPresent(String.self, forKey: .version)
        uptime = try c.decodeIfPresent(Double.self, forKey: .uptime)
        subscribers = try c.decodeIfPresent(Int.self, forKey: .subscribers)
        sampling = try c.decodeIfPresent(String.self, forKey: .sampling)
        device = try c.decodeIfPresent(String.self, forKey: .device)
        posture = try c.decodeIfPresent(String.self, forKey: .posture)
        tabletMode = try c.decodeIfPresent(Bool.self, forKey: .tabletMode)
        hingeAngle = try c.decodeIfPresent(Double.self, forKey: .hingeAngle)
    }

    public static func decode(_ line: some Sequence<UInt8>) throws -> ServerMessage {
        try JSONDecoder().decode(ServerMessage.self, from: Data(line))
    }
}
