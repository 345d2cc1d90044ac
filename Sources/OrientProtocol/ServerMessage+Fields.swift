import OrientCore

/// A message's members as spelled on the wire, for printing and for tests: `nil` where the message has none.
extension ServerMessage {
    /// The state a reply or an event carries.
    public var state: OrientationState? {
        switch self {
        case .state(_, let state, _, _), .event(let state): state
        case .done, .status, .error, .reading, .tabletModeSwitch: nil
        }
    }

    public var statusReport: StatusReport? {
        if case .status(_, let report) = self { return report }
        return nil
    }

    /// `true` for replies, `false` for errors, `nil` for events.
    public var ok: Bool? {
        switch self {
        case .state, .done, .status: true
        case .error: false
        case .event, .reading, .tabletModeSwitch: nil
        }
    }

    public var event: String? {
        switch self {
        case .event: Self.orientationEvent
        case .reading(let reading): reading.kind.rawValue
        case .tabletModeSwitch: Self.tabletModeSwitchEvent
        default: nil
        }
    }

    /// What a reading event says, or what a `get` reply says of `kind`, when it asked.
    public func reading(_ kind: SensorKind) -> ReadingState? {
        switch self {
        case .reading(let reading) where reading.kind == kind: reading
        case .state(_, _, _, let readings): readings.first { $0.kind == kind }
        default: nil
        }
    }

    /// An error reply's code and message.
    public struct ErrorDetail: Sendable, Equatable {
        public var code: String
        public var message: String
    }

    public var error: ErrorDetail? {
        if case .error(let error) = self { return ErrorDetail(code: error.code.rawValue, message: error.message) }
        return nil
    }

    /// In replies to `get`.
    public var fresh: Bool? {
        if case .state(_, _, let fresh, _) = self { return fresh }
        return nil
    }

    public var device: String? { state?.device.rawValue }
    public var interface: String? { state?.interface.rawValue }
    public var rotation: Int? { state?.rotation }
    public var locked: Bool? { state?.locked }
    public var mask: String? { state?.mask.name }
    /// The sensor state, in states and in `status`.
    public var sensor: String? { (state?.sensor ?? statusReport?.sensorState)?.rawValue }
    public var t: Double? { state?.time }
    public var posture: String? { state?.hinge.posture.rawValue }
    public var tabletMode: Bool? { state?.hinge.tabletMode }
    public var hingeAngle: Double? { state?.hinge.hingeAngle }

    public var version: String? { statusReport?.version }
    public var uptime: Double? { statusReport?.uptime }
    public var subscribers: Int? { statusReport?.subscribers }
    public var sampling: String? { statusReport?.sampling }
    /// The sensor `status` describes.
    public var sensorInfo: StatusReport.Sensor? { statusReport?.sensor }
}
