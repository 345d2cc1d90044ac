import OrientCore
import OrientProtocol

/// How states and events are printed.
enum StateText {
    static func human(_ m: ServerMessage) -> String {
        var text = """
            device: \(m.device ?? "?")
            interface: \(m.interface ?? "?")\(m.rotation.map { "\nrotation: \($0)°" } ?? "")
            locked: \(m.locked == true ? "yes" : "no")
            mask: \(m.mask ?? "?")
            sensor: \(m.sensor ?? "?")
            """
        if let posture = knownPosture(m) {
            text += """

                posture: \(posture)
                tablet-mode: \(m.tabletMode.map { $0 ? "yes" : "no" } ?? "unknown")
                hinge-angle: \(m.hingeAngle.map { degrees($0) + "°" } ?? "unknown")
                """
        }
        for kind in SensorKind.readings {
            if let reading = m.reading(kind) { text += "\n\(kind.rawValue): \(describe(reading))" }
        }
        return text
    }

    /// A one-value sensor's state: `50 lux`, `near`, `far`, `none` (no sensor), `not read yet`.
    static func describe(_ reading: ReadingState) -> String {
        guard reading.present else { return "none" }
        switch reading.value {
        case .light(let level, let unit)?: return "\(number(level)) \(unit)"
        case .proximity(let near)?: return near ? "near" : "far"
        case .compass(let heading)?: return "\(number(heading))°"
        case nil: return "not read yet"
        }
    }

    /// A level as the daemon sends it: `50`, not `50.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// One line per event: time, device, interface and flags; a one-value sensor's event, its kind and reading.
    /// The sensor is shown while it is not available, and when it has just become so (`sensorBefore`, the
    /// previous line's), so that a line which only brings the sensor back does not read as the last one again.
    static func humanEvent(_ m: ServerMessage, sensorBefore: String? = nil) -> String {
        if case .reading(let reading) = m { return "\(reading.kind.rawValue) \(describe(reading))" }
        if case .tabletModeSwitch(let state) = m { return "tablet-mode switch \(state.rawValue)" }
        let time = m.t.map { String(($0 * 1000).rounded() / 1000) } ?? "-"
        var line = "\(time)  device \(m.device ?? "?")  interface \(m.interface ?? "?")"
        if let posture = knownPosture(m) {
            line += "  posture \(posture)  tablet-mode \(m.tabletMode.map { $0 ? "on" : "off" } ?? "?")"
            line += "  hinge \(m.hingeAngle.map { degrees($0) + "°" } ?? "?")"
        }
        if m.locked == true { line += "  locked" }
        if let sensor = m.sensor, sensor != "available" || sensorBefore.map({ $0 != sensor }) == true {
            line += "  sensor \(sensor)"
        }
        return line
    }

    /// The posture, when the daemon reports one: a device without a base sensor (or an older daemon) prints as
    /// it always did.
    private static func knownPosture(_ m: ServerMessage) -> String? {
        guard let posture = m.posture, posture != "unknown" else { return nil }
        return posture
    }

    /// An angle as the daemon sends it, in whole degrees: `105`, not `105.0`.
    static func degrees(_ angle: Double) -> String {
        angle == angle.rounded() && abs(angle) < 1e9 ? String(Int(angle)) : String(angle)
    }

    /// A reply for `--json`: the daemon's line without `ok` and `id`, which answer orientctl's request and
    /// mean nothing to a script. Every other field is printed as the daemon sent it, including fields this
    /// orientctl does not know.
    static func json(reply text: String) -> String {
        JSONMemberFilter.removing(["ok", "id"], from: text)
    }
}
