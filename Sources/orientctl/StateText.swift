import OrientProtocol

/// How states and events are printed.
enum StateText {
    static func human(_ m: ServerMessage) -> String {
        """
        device: \(m.device ?? "?")
        interface: \(m.interface ?? "?")
        locked: \(m.locked == true ? "yes" : "no")
        mask: \(m.mask ?? "?")
        sensor: \(m.sensor ?? "?")
        """
    }

    /// One line per event: time, device, interface and flags.
    static func humanEvent(_ m: ServerMessage) -> String {
        let time = m.t.map { String(($0 * 1000).rounded() / 1000) } ?? "-"
        var line = "\(time)  device \(m.device ?? "?")  interface \(m.interface ?? "?")"
        if m.locked == true { line += "  locked" }
        if let sensor = m.sensor, sensor != "available" { line += "  sensor \(sensor)" }
        return line
    }

    /// A state re-encoded as the daemon would send it (replies lose their `ok` and `id`).
    static func json(_ m: ServerMessage) -> String {
        var writer = JSONLineWriter()
        writer.field("device", m.device ?? "unknown")
        writer.field("interface", m.interface ?? "unknown")
        writer.field("locked", m.locked ?? false)
        writer.field("mask", m.mask ?? "all")
        writer.field("sensor", m.sensor ?? "none")
        writer.field("t", m.t)
        return String(writer.line.dropLast())
    }
}
