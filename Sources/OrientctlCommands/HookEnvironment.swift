import OrientProtocol

/// The variables `watch --exec` gives its command, from the state that ran it.
enum HookEnvironment {
    static func variables(_ state: ServerMessage, previousInterface: String) -> [String: String] {
        [
            "ORIENTD_DEVICE": state.device ?? "unknown",
            "ORIENTD_INTERFACE": state.interface ?? "unknown",
            "ORIENTD_PREVIOUS_INTERFACE": previousInterface,
            // Degrees counter-clockwise to turn the picture on the panel: 0, 90, 180 or 270; empty while unknown.
            "ORIENTD_ROTATION": state.rotation.map { "\($0)" } ?? "",
            // A convertible's; `unknown` and empty without a base sensor. Empty rather than a word, so that
            // `[ "$ORIENTD_TABLET_MODE" = 1 ]` is simply false when nothing is known.
            "ORIENTD_POSTURE": state.posture ?? "unknown",
            "ORIENTD_TABLET_MODE": state.tabletMode.map { $0 ? "1" : "0" } ?? "",
            "ORIENTD_HINGE_ANGLE": state.hingeAngle.map(StateText.degrees) ?? "",
        ]
    }
}
