/// What orientd tells the switch's keeper, one of three exact lines (PROTOCOL.md, "The tablet-mode switch"). The
/// keeper runs with write access to /dev/uinput, so it parses nothing: a line is one of these bytes for bytes, or
/// ignored.
enum SwitchCommand: Equatable {
    /// Tablet mode: the switch reports 1, made first if it does not exist.
    case on
    /// Not tablet mode (or unknown): the switch reports 0, made first if it does not exist.
    case off
    /// No switch should exist: it reports 0 and goes.
    case none

    private static let lines: [(bytes: [UInt8], command: SwitchCommand)] = [
        (Array(#"{"event":"tablet-mode-switch","state":"on"}"#.utf8), .on),
        (Array(#"{"event":"tablet-mode-switch","state":"off"}"#.utf8), .off),
        (Array(#"{"event":"tablet-mode-switch","state":"none"}"#.utf8), .none),
    ]

    /// The longest line worth reading: a longer one is none of the three.
    static let longestLine = 64

    /// The command a line (without its newline) says; `nil` for any other line.
    init?(line: some Collection<UInt8>) {
        guard let match = Self.lines.first(where: { $0.bytes.elementsEqual(line) }) else { return nil }
        self = match.command
    }
}
