import OrientCore
import OrientSensors

extension DoctorReport {
    /// Whether the machine has a tablet-mode switch of its own: GNOME (in touch mode) and KDE Plasma (its
    /// default auto-rotate policy) turn a convertible's built-in screen only in tablet mode, which they read from
    /// such a switch. Without one, orientd's is what tells them: `tablet-mode-switch = auto` decides whether it
    /// exists, as the daemon does (``TabletModeSwitchPolicy``).
    struct TabletMode: Codable {
        /// Every input device reporting SW_TABLET_MODE, orientd's own included; nil when udev cannot be asked.
        var switches: [TabletModeSwitchDevice]?

        var machineSwitches: [TabletModeSwitchDevice] { (switches ?? []).filter { !$0.isOrientds } }
    }

    /// What `tablet-mode-switch = auto` decides on this machine, as the daemon would.
    var automaticSwitch: TabletModeSwitchDecision? {
        guard let switches = tabletMode?.switches else { return nil }
        let postureSource =
            sensor == nil ? nil
            : hingeSensor.map { TabletModeSwitchDiscovery.postureSource(hinge: $0.id, name: $0.name) }
                ?? base.map { TabletModeSwitchDiscovery.postureSource(display: sensor?.id ?? "?", base: $0.id) }
        let machine = TabletModeSwitchPolicy.Machine(
            postureSource: postureSource,
            switches: switches.filter { !$0.isOrientds }.map(\.asPolicySwitch))
        return TabletModeSwitchPolicy.decide(.auto, on: machine)
    }

    mutating func examineTabletModeSwitches(udev: UdevHub) {
        tabletMode = TabletMode(switches: TabletModeSwitchDiscovery.find(udev: udev))
    }

    /// The lines that say who reports tablet mode to the desktops, and what follows for rotation.
    var tabletModeLines: [String] {
        guard let tabletMode else { return [] }
        guard let switches = tabletMode.switches else {
            return ["", "Tablet-mode switch: unknown (udev cannot list the input devices)"]
        }
        var lines = [""]
        let own = tabletMode.machineSwitches
        if own.isEmpty {
            lines.append("Tablet-mode switch: the machine has none of its own.")
            if base != nil || hingeSensor != nil {
                lines.append(
                    "  GNOME and KDE turn a convertible's screen only in tablet mode, which they read from such a switch;")
                lines.append("  with none they never turn it (docs/convertibles.md).")
            }
        } else {
            let names = own.map { "\($0.name) (\($0.node))" }.joined(separator: ", ")
            lines.append("Tablet-mode switch: the machine's own, \(names); GNOME and KDE follow it.")
        }
        for device in switches where device.isOrientds {
            lines.append("  orientd's own switch is there too: \(device.node)")
        }
        if let decision = automaticSwitch {
            lines.append("  tablet-mode-switch = auto (the default) decides: \(decision.wanted ? "on" : "off") (\(decision.reason))")
        }
        return lines
    }
}
