import OrientCore

/// Prints engine changes as JSON lines, buffered, since a long trace can have many.
///
/// One line per sample that changed something. An orientation change reads as it always has,
/// `{"t":12.34,"device":"portrait","interface":"portrait"}`; a two-sensor trace's posture, tablet mode and hinge
/// angle follow as further keys, only those that changed, so that a line keeps whatever a sample committed
/// together (leaving tablet mode and the interface turning upright for the keyboard, say).
struct ChangePrinter {
    private var pending = ""

    mutating func print(_ update: ConvertibleEngine.Update) {
        var line: String
        if let change = update.orientation {
            line = #"{"t":\#(change.time),"device":"\#(change.device)","interface":"\#(change.interface)""#
            if let posture = update.posture { Self.append(posture, to: &line) }
        } else if let posture = update.posture, !posture.isEmpty {
            line = #"{"t":\#(posture.time)"#
            Self.append(posture, to: &line)
        } else {
            return
        }
        pending += line + "}\n"
        if pending.utf8.count >= 16 * 1024 { flush() }
    }

    /// `"posture"`, `"tablet-mode"` and `"hinge-angle"` (whole degrees), each when it changed; `null` when it
    /// became unknown.
    private static func append(_ change: PostureEngine.Change, to line: inout String) {
        if let posture = change.posture { line += #","posture":"\#(posture)""# }
        if let tabletMode = change.tabletMode { line += #","tablet-mode":\#(tabletMode.map { "\($0)" } ?? "null")"# }
        if let angle = change.hingeAngle {
            // Already rounded to a degree by the engine, and within 0...360.
            line += #","hinge-angle":\#(angle.map { "\(Int($0))" } ?? "null")"#
        }
    }

    mutating func flush() {
        Swift.print(pending, terminator: "")
        pending = ""
    }
}
