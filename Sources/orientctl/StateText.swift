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

    /// A reply for `--json`: the daemon's line without `ok` and `id`, which answer orientctl's request and
    /// mean nothing to a script. Every other field is printed as the daemon sent it, including fields this
    /// orientctl does not know.
    static func json(reply text: String) -> String {
        JSONMemberFilter.removing(["ok", "id"], from: text)
    }
}
