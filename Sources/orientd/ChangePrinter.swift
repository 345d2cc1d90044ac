import OrientCore

/// Writes engine changes as JSON lines to a stream (standard output, for `classify`), buffered, since a long trace
/// can have many.
///
/// One line per sample that changed something. An orientation change reads
/// `{"t":12.34,"device":"portrait","interface":"portrait","rotation":0}`, `rotation` being how far the content
/// turns counter-clockwise on the panel to show that interface upright (`null` while it is unknown); a two-sensor trace's posture, tablet mode and hinge
/// angle follow as further keys, only those that changed, so that a line keeps whatever a sample committed
/// together (leaving tablet mode and the interface turning upright for the keyboard, say).
struct ChangePrinter {
    /// The panel's shape, which turns an interface orientation into a rotation.
    let natural: NaturalOrientation
    private var pending = ""

    init(natural: NaturalOrientation) {
        self.natural = natural
    }

    mutating func print(_ update: ConvertibleEngine.Update, to output: inout some TextOutputStream) {
        var line: String
        if let change = update.orientation {
            // classify's engine has a tracker: every change carries the interface.
            let interface = change.interface ?? .unknown
            let rotation = natural.pose(showing: interface).map { "\($0.rotation)" } ?? "null"
            line = #"{"t":\#(change.time),"device":"\#(change.device)","interface":"\#(interface)","rotation":\#(rotation)"#
            if let posture = update.posture { Self.append(posture, to: &line) }
        } else if let posture = update.posture, !posture.isEmpty {
            line = #"{"t":\#(posture.time)"#
            Self.append(posture, to: &line)
        } else {
            return
        }
        pending += line + "}\n"
        if pending.utf8.count >= 16 * 1024 { flush(to: &output) }
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

    mutating func flush(to output: inout some TextOutputStream) {
        output.write(pending)
        pending = ""
    }
}
