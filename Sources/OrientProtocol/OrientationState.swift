import OrientCore

/// Whether a sensor feeds the daemon.
public enum SensorState: String, Sendable, Hashable, Codable {
    /// Samples are flowing (or the sensor is open and idle until a subscriber asks).
    case available
    /// The sensor went away or failed; the device orientation is `unknown` until it is back.
    case unavailable
    /// No sensor has been found.
    case none
}

/// The state one client sees: the device orientation, its own interface orientation and the system's flags.
public struct OrientationState: Sendable, Hashable {
    public var device: DeviceOrientation
    public var interface: InterfaceOrientation
    /// How far, in degrees counter-clockwise as the user looks at the panel, the content must be turned for
    /// `interface` to appear upright (``PanelPose/rotation``); `nil` while the interface is unknown, or from a
    /// daemon that does not say.
    public var rotation: Int?
    public var locked: Bool
    /// The mask this state was resolved under (the system mask for `get`, system ∩ client for subscribers).
    public var mask: InterfaceOrientationMask
    public var sensor: SensorState
    /// The sample time of the last committed change; `nil` before the first.
    public var time: Double?
    /// Posture, tablet mode and hinge angle; unknown without a base sensor.
    public var hinge: HingeState

    public init(
        device: DeviceOrientation, interface: InterfaceOrientation, rotation: Int? = nil, locked: Bool,
        mask: InterfaceOrientationMask, sensor: SensorState, time: Double?, hinge: HingeState = .unknown
    ) {
        self.device = device
        self.interface = interface
        self.rotation = rotation
        self.locked = locked
        self.mask = mask
        self.sensor = sensor
        self.time = time
        self.hinge = hinge
    }
}
