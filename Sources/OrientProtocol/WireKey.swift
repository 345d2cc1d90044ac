import OrientCore

/// Every member name of the protocol, as spelled on the wire (PROTOCOL.md): requests, replies, events and status.
enum WireKey: String, CodingKey {
    case op, id, ok, event, error, code, message
    case device, interface, rotation, locked, mask, sensor, t, posture, fresh
    case naturalOrientation = "natural-orientation"
    case naturalOrientationSource = "natural-orientation-source"
    case tabletMode = "tablet-mode"
    case hingeAngle = "hinge-angle"
    case tabletModeSwitch = "tablet-mode-switch"
    case reason
    case preferred, changes, autorotate
    case version, uptime, subscribers, sampling, state, name, mode, rate, location, base, hinge, path
    case mountMatrix = "mount-matrix"
    case mountMatrixSource = "mount-matrix-source"
    case mountMatrixRepaired = "mount-matrix-repaired"
    case readings, light, proximity, compass, present, level, unit, near, open, interval
    case foundBy = "found-by"
    case nearLevel = "near-level"
    case incidents

    /// A sensor's detail, under its own name.
    init(_ detail: SensorDetail) {
        switch detail {
        case .nearLevel: self = .nearLevel
        }
    }
}
