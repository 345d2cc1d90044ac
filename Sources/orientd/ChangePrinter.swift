import OrientCore

/// Prints engine changes as JSON lines, buffered, since a long trace can have many.
struct ChangePrinter {
    private var pending = ""

    mutating func print(_ change: OrientationEngine.Change) {
        pending += #"{"t":\#(change.time),"device":"\#(change.device)","interface":"\#(change.interface)"}"#
        pending += "\n"
        if pending.utf8.count >= 16 * 1024 { flush() }
    }

    mutating func flush() {
        Swift.print(pending, terminator: "")
        pending = ""
    }
}
