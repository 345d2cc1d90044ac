/// `tablet-mode-switch`: whether orientd reports tablet mode as an input switch (SW_TABLET_MODE), which libinput
/// reads and GNOME and KDE act on.
public enum TabletModeSwitchSetting: String, Sendable, CaseIterable, Codable {
    /// On where orientd can tell the posture and the machine has no switch of its own.
    case auto
    /// On wherever orientd runs: the desktops then see two switches where the machine has one.
    case yes
    /// Never.
    case no
}

/// Whether orientd reports a tablet-mode switch, and why: the daemon logs it and acts on it, `orientd doctor`
/// shows it, both from ``TabletModeSwitchPolicy``.
public struct TabletModeSwitchDecision: Sendable, Equatable, Codable {
    public var wanted: Bool
    /// Why, as the log line's end: "tablet-mode switch: on (…)".
    public var reason: String

    public init(wanted: Bool, reason: String) {
        self.wanted = wanted
        self.reason = reason
    }

    /// The log line, and doctor's.
    public var summary: String { "tablet-mode switch: \(wanted ? "on" : "off") (\(reason))" }
}

/// Decides whether orientd reports a tablet-mode switch. Pure: the daemon and doctor hand it what they found.
///
/// `auto` is on only where orientd can tell the posture (a base accelerometer beside the display's, or a kernel
/// hinge sensor) and no other input device reports SW_TABLET_MODE. Where the machine has its own switch, the
/// desktops already follow it, and a second one that disagrees would fight it. Where nothing tells the posture, a
/// switch that stays off would do harm: with a switch, mutter's touch mode follows it, and a tablet with no keyboard
/// would lose its touch mode. A switch libinput ignores (LIBINPUT_IGNORE_DEVICE, the fix for a firmware switch that
/// lies) is one no desktop sees, so it does not count.
public enum TabletModeSwitchPolicy {
    /// What the machine offers that the decision depends on.
    public struct Machine: Sendable, Equatable {
        /// What tells the posture ("display and base accelerometers", "the kernel's hinge sensor hinge"); `nil`
        /// when nothing does.
        public var postureSource: String?
        /// The input devices reporting SW_TABLET_MODE, orientd's own left out.
        public var switches: [Switch]

        public init(postureSource: String?, switches: [Switch]) {
            self.postureSource = postureSource
            self.switches = switches
        }
    }

    /// An input device reporting SW_TABLET_MODE.
    public struct Switch: Sendable, Equatable {
        public var name: String
        /// Its event node, `/dev/input/event6`.
        public var node: String
        /// Tagged LIBINPUT_IGNORE_DEVICE: libinput, and so every desktop, ignores it.
        public var ignoredByLibinput: Bool

        public init(name: String, node: String, ignoredByLibinput: Bool = false) {
            self.name = name
            self.node = node
            self.ignoredByLibinput = ignoredByLibinput
        }

        var description: String { "\(name) (\(node))" }
    }

    public static func decide(_ setting: TabletModeSwitchSetting, on machine: Machine) -> TabletModeSwitchDecision {
        switch setting {
        case .yes: return TabletModeSwitchDecision(wanted: true, reason: "tablet-mode-switch = yes")
        case .no: return TabletModeSwitchDecision(wanted: false, reason: "tablet-mode-switch = no")
        case .auto: break
        }
        let seen = machine.switches.filter { !$0.ignoredByLibinput }
        if !seen.isEmpty {
            let names = seen.map(\.description).joined(separator: ", ")
            return TabletModeSwitchDecision(wanted: false, reason: "the machine has its own: \(names)")
        }
        guard let source = machine.postureSource else {
            return TabletModeSwitchDecision(wanted: false, reason: "no base accelerometer or hinge sensor tells the posture")
        }
        let ignored = machine.switches.map(\.description).joined(separator: ", ")
        let aside = ignored.isEmpty ? "" : "; libinput ignores \(ignored)"
        return TabletModeSwitchDecision(wanted: true, reason: "\(source), and no other tablet-mode switch\(aside)")
    }
}
