import OrientInput

/// An input device that reports SW_TABLET_MODE, the switch libinput, GNOME and KDE read tablet mode from: the
/// machine's own (intel-vbtn, intel-hid, thinkpad_acpi, a tablet's gpio-keys) or the one orientd makes.
public struct TabletModeSwitchDevice: Sendable, Equatable, Codable {
    public var name: String
    /// The event node, `/dev/input/event6`.
    public var node: String
    /// Whether it is orientd's own (``TabletModeSwitch``), not the machine's.
    public var isOrientds: Bool
}

/// Finds the tablet-mode switches through udev.
public enum TabletModeSwitchDiscovery {
    /// Every input device reporting SW_TABLET_MODE; nil when udev cannot be asked.
    public static func find(udev: UdevHub) -> [TabletModeSwitchDevice]? {
        udev.query { session in
            session.switchDevices(code: 1).map { device in
                TabletModeSwitchDevice(
                    name: device.name, node: device.node, isOrientds: device.name == TabletModeSwitch.deviceName)
            }
        }
    }
}
