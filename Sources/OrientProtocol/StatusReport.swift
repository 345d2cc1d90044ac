/// The answer to `status`.
public struct StatusReport: Sendable, Equatable, Codable {
    public struct Sensor: Sendable, Equatable {
        public var id: String
        public var name: String
        public var mode: String
        public var rate: Double?
        public var mountMatrix: String
        public var mountMatrixSource: String
        public var mountMatrixRepaired: Bool
        public var location: String
        /// A convertible's keyboard-base sensor, read with this one; `nil` when there is none.
        public var base: BaseSensor?
        /// A kernel hinge sensor, read with this one; `nil` when there is none.
        public var hinge: HingeSensor?

        public init(
            id: String, name: String, mode: String, rate: Double?, mountMatrix: String, mountMatrixSource: String,
            mountMatrixRepaired: Bool, location: String, base: BaseSensor? = nil, hinge: HingeSensor? = nil
        ) {
            self.id = id
            self.name = name
            self.mode = mode
            self.rate = rate
            self.mountMatrix = mountMatrix
            self.mountMatrixSource = mountMatrixSource
            self.mountMatrixRepaired = mountMatrixRepaired
            self.location = location
            self.base = base
            self.hinge = hinge
        }
    }

    public struct BaseSensor: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        /// The sysfs path; `nil` for a replayed trace's base readings.
        public var path: String?
        public var mountMatrix: String
        public var mountMatrixSource: String
        public var mountMatrixRepaired: Bool

        public init(
            id: String, name: String, path: String?, mountMatrix: String, mountMatrixSource: String, mountMatrixRepaired: Bool
        ) {
            self.id = id
            self.name = name
            self.path = path
            self.mountMatrix = mountMatrix
            self.mountMatrixSource = mountMatrixSource
            self.mountMatrixRepaired = mountMatrixRepaired
        }

        public func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: WireKey.self)
            try members.encode(id, forKey: .id)
            try members.encode(name, forKey: .name)
            try members.encode(path, forKey: .path)
            try members.encode(mountMatrix, forKey: .mountMatrix)
            try members.encode(mountMatrixSource, forKey: .mountMatrixSource)
            try members.encode(mountMatrixRepaired, forKey: .mountMatrixRepaired)
        }

        public init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: WireKey.self)
            id = try members.decode(String.self, forKey: .id)
            name = try members.decode(String.self, forKey: .name)
            path = try members.decodeIfPresent(String.self, forKey: .path)
            mountMatrix = try members.decode(String.self, forKey: .mountMatrix)
            mountMatrixSource = try members.decode(String.self, forKey: .mountMatrixSource)
            mountMatrixRepaired = try members.decode(Bool.self, forKey: .mountMatrixRepaired)
        }
    }

    /// Whether a tablet-mode switch should exist, what it reports, and why.
    public struct TabletModeSwitch: Sendable, Equatable, Codable {
        public var state: TabletModeSwitchState
        public var reason: String

        public init(state: TabletModeSwitchState, reason: String) {
            self.state = state
            self.reason = reason
        }
    }

    public var version: String
    /// Seconds since the daemon started.
    public var uptime: Double
    public var subscribers: Int
    public var sampling: String
    /// The panel's natural orientation (`portrait`, `landscape`) and where it came from (`panel eDP-1, 1920x1080`,
    /// `assumed: no internal panel ...`); `nil` from a daemon that does not say.
    public var naturalOrientation: String?
    public var naturalOrientationSource: String?
    public var sensorState: SensorState
    /// The sensor in use, or the last one used; `nil` when none was ever found.
    public var sensor: Sensor?
    /// Whether the report says anything of a base sensor (`base`, null included): daemons before convertibles
    /// did not, and a client then prints nothing rather than a "none" that was not said.
    public var reportsBase: Bool
    /// The one-value sensors (light, proximity, compass) the daemon serves, in its order; `nil` from a daemon that
    /// does not say.
    public var readingSensors: [ReadingSensor]?
    /// Each sensor that ran into something since the daemon started (``Incidents``); nil when the daemon does not
    /// say, empty when nothing happened.
    public var incidents: [Incidents]?
    /// The tablet-mode switch; `nil` while the daemon cannot tell yet, or from a daemon that does not say.
    public var tabletModeSwitch: TabletModeSwitch?

    public init(
        version: String, uptime: Double, subscribers: Int, sampling: String, naturalOrientation: String? = nil,
        naturalOrientationSource: String? = nil, sensorState: SensorState, sensor: Sensor?, reportsBase: Bool = true,
        readingSensors: [ReadingSensor]? = nil, incidents: [Incidents]? = nil, tabletModeSwitch: TabletModeSwitch? = nil
    ) {
        self.version = version
        self.uptime = uptime
        self.subscribers = subscribers
        self.sampling = sampling
        self.naturalOrientation = naturalOrientation
        self.naturalOrientationSource = naturalOrientationSource
        self.sensorState = sensorState
        self.sensor = sensor
        self.reportsBase = reportsBase
        self.readingSensors = readingSensors
        self.incidents = incidents
        self.tabletModeSwitch = tabletModeSwitch
    }

    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: WireKey.self)
        try members.encode(version, forKey: .version)
        try members.encode(uptime, forKey: .uptime)
        try members.encode(subscribers, forKey: .subscribers)
        try members.encode(sampling, forKey: .sampling)
        try members.encodeIfPresent(naturalOrientation, forKey: .naturalOrientation)
        try members.encodeIfPresent(naturalOrientationSource, forKey: .naturalOrientationSource)
        var detail = members.nestedContainer(keyedBy: WireKey.self, forKey: .sensor)
        try detail.encode(sensorState, forKey: .state)
        if let sensor {
            try detail.encode(sensor.id, forKey: .id)
            try detail.encode(sensor.name, forKey: .name)
            try detail.encode(sensor.mode, forKey: .mode)
            try detail.encode(sensor.rate, forKey: .rate)
            try detail.encode(sensor.location, forKey: .location)
            try detail.encode(sensor.mountMatrix, forKey: .mountMatrix)
            try detail.encode(sensor.mountMatrixSource, forKey: .mountMatrixSource)
            try detail.encode(sensor.mountMatrixRepaired, forKey: .mountMatrixRepaired)
        }
        // Null without a base sensor, so that a client can tell that from an older daemon.
        if reportsBase {
            try detail.encode(sensor?.base, forKey: .base)
            try detail.encode(sensor?.hinge, forKey: .hinge)
        }
        try encodeReadings(into: &members)
        try members.encodeIfPresent(incidents, forKey: .incidents)
        try members.encodeIfPresent(tabletModeSwitch, forKey: .tabletModeSwitch)
    }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: WireKey.self)
        version = try members.decode(String.self, forKey: .version)
        uptime = try members.decode(Double.self, forKey: .uptime)
        subscribers = try members.decode(Int.self, forKey: .subscribers)
        sampling = try members.decode(String.self, forKey: .sampling)
        naturalOrientation = try members.decodeIfPresent(String.self, forKey: .naturalOrientation)
        naturalOrientationSource = try members.decodeIfPresent(String.self, forKey: .naturalOrientationSource)
        readingSensors = try Self.decodeReadings(from: members)
        incidents = try members.decodeIfPresent([Incidents].self, forKey: .incidents)
        tabletModeSwitch = try members.decodeIfPresent(TabletModeSwitch.self, forKey: .tabletModeSwitch)
        let detail = try members.nestedContainer(keyedBy: WireKey.self, forKey: .sensor)
        sensorState = try detail.decode(SensorState.self, forKey: .state)
        reportsBase = detail.contains(.base)
        // Without a sensor ever found, the object holds the state alone.
        guard detail.contains(.id) else {
            sensor = nil
            return
        }
        sensor = Sensor(
            id: try detail.decode(String.self, forKey: .id), name: try detail.decode(String.self, forKey: .name),
            mode: try detail.decode(String.self, forKey: .mode),
            rate: try detail.decodeIfPresent(Double.self, forKey: .rate),
            mountMatrix: try detail.decode(String.self, forKey: .mountMatrix),
            mountMatrixSource: try detail.decode(String.self, forKey: .mountMatrixSource),
            mountMatrixRepaired: try detail.decode(Bool.self, forKey: .mountMatrixRepaired),
            location: try detail.decode(String.self, forKey: .location),
            base: try detail.decodeIfPresent(BaseSensor.self, forKey: .base),
            hinge: try detail.decodeIfPresent(HingeSensor.self, forKey: .hinge))
    }
}
