import OrientCore

/// The lines the daemon writes. Each function returns one complete line, newline included.
public enum Messages {
    /// A successful reply carrying a state (`get`, `subscribe`, `lock`, `unlock`, `set-mask`).
    /// - Parameter fresh: `get` only: whether the device orientation comes from the sensor as it reads now.
    public static func stateReply(id: RequestID?, _ state: OrientationState, fresh: Bool? = nil) -> String {
        var writer = JSONLineWriter()
        writer.field("ok", true)
        if let id { writer.field("id", id) }
        appendState(state, to: &writer)
        if let fresh { writer.field("fresh", fresh) }
        return writer.line
    }

    /// A successful reply with nothing to say (`unsubscribe`).
    public static func okReply(id: RequestID?) -> String {
        var writer = JSONLineWriter()
        writer.field("ok", true)
        if let id { writer.field("id", id) }
        return writer.line
    }

    /// An event sent to subscribers after a change.
    public static func orientationEvent(_ state: OrientationState) -> String {
        var writer = JSONLineWriter()
        writer.field("event", "orientation")
        appendState(state, to: &writer)
        return writer.line
    }

    public static func errorReply(_ error: ProtocolError) -> String {
        var writer = JSONLineWriter()
        writer.field("ok", false)
        if let id = error.id { writer.field("id", id) }
        var detail = JSONLineWriter()
        detail.field("code", error.code.rawValue)
        detail.field("message", error.message)
        writer.field("error", object: detail)
        return writer.line
    }

    private static func appendState(_ state: OrientationState, to writer: inout JSONLineWriter) {
        writer.field("device", state.device.rawValue)
        writer.field("interface", state.interface.rawValue)
        writer.field("locked", state.locked)
        writer.field("mask", state.mask.name)
        writer.field("sensor", state.sensor.rawValue)
        writer.field("t", state.time)
        // Always present, so that a client can tell "no base sensor" (unknown, null) from an older daemon.
        writer.field("posture", state.hinge.posture.rawValue)
        writer.field("tablet-mode", state.hinge.tabletMode)
        writer.field("hinge-angle", state.hinge.hingeAngle)
    }
}

/// The answer to `status`.
public struct StatusReport: Sendable, Equatable {
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

        public init(
            id: String, name: String, mode: String, rate: Double?, mountMatrix: String, mountMatrixSource: String,
            mountMatrixRepaired: Bool, location: String, base: BaseSensor? = nil
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
        }
    }

    public struct BaseSensor: Sendable, Equatable {
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
    }

    public var version: String
    public var uptime: Double
    public var subscribers: Int
    public var sampling: String
    public var sensorState: SensorState
    /// The sensor in use, or the last one used; `nil` when none was ever found.
    public var sensor: Sensor?

    public init(
        version: String, uptime: Double, subscribers: Int, sampling: String, sensorState: SensorState, sensor: Sensor?
    ) {
        self.version = version
        self.uptime = uptime
        self.subscribers = subscribers
        self.sampling = sampling
        self.sensorState = sensorState
        self.sensor = sensor
    }

    public func reply(id: RequestID?) -> String {
        var writer = JSONLineWriter()
        writer.field("ok", true)
        if let id { writer.field("id", id) }
        writer.field("version", version)
        writer.field("uptime", (uptime * 1000).rounded() / 1000)
        writer.field("subscribers", subscribers)
        writer.field("sampling", sampling)
        var detail = JSONLineWriter()
        detail.field("state", sensorState.rawValue)
        if let sensor {
            detail.field("id", sensor.id)
            detail.field("name", sensor.name)
            detail.field("mode", sensor.mode)
            detail.field("rate", sensor.rate)
            detail.field("location", sensor.location)
            detail.field("mount-matrix", sensor.mountMatrix)
            detail.field("mount-matrix-source", sensor.mountMatrixSource)
            detail.field("mount-matrix-repaired", sensor.mountMatrixRepaired)
        }
        // Always sent, null without a base sensor, so that a client can tell that from an older daemon.
        if let base = sensor?.base {
            var described = JSONLineWriter()
            described.field("id", base.id)
            described.field("name", base.name)
            described.field("path", base.path)
            described.field("mount-matrix", base.mountMatrix)
            described.field("mount-matrix-source", base.mountMatrixSource)
            described.field("mount-matrix-repaired", base.mountMatrixRepaired)
            detail.field("base", object: described)
        } else {
            detail.nullField("base")
        }
        writer.field("sensor", object: detail)
        return writer.line
    }
}
