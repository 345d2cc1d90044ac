import OrientCore
import OrientInput

/// An input device that reports SW_TABLET_MODE, the switch libinput, GNOME and KDE read tablet mode from: the
/// machine's own (intel-vbtn, intel-hid, thinkpad_acpi, a tablet's gpio-keys) or the one orientd makes.
public struct TabletModeSwitchDevice: Sendable, Equatable, Codable {
    public var name: String
    /// The event node, `/dev/input/event6`.
    public var node: String
    /// Whether it is orientd's own (``TabletModeSwitch``), not the machine's.
    public var isOrientds: Bool
    /// Tagged LIBINPUT_IGNORE_DEVICE: libinput, and so every desktop, ignores it.
    public var ignoredByLibinput: Bool = false

    /// The device as the switch's decision counts it.
    public var asPolicySwitch: TabletModeSwitchPolicy.Switch {
        TabletModeSwitchPolicy.Switch(name: name, node: node, ignoredByLibinput: ignoredByLibinput)
    }
}

/// Finds the tablet-mode switches through udev.
public enum TabletModeSwitchDiscovery {
    /// Every input device reporting SW_TABLET_MODE; nil when udev cannot be asked.
    public static func find(udev: UdevHub) -> [TabletModeSwitchDevice]? {
        udev.query { session in
            Self.switches(in: session)
        }
    }

    /// What the machine offers for the tablet-mode switch's decision, now and again after every IIO and input
    /// event, yielded when it changes. While udev cannot be watched, the last value stands.
    public static func machineChanges(udev: UdevHub) -> AsyncStream<TabletModeSwitchPolicy.Machine> {
        udev.changes(of: ["iio", "input"], unavailable: nil) { session, _ in
            machine(
                accelerometers: session.accelerometers(), switches: switches(in: session),
                hingeSensors: session.hingeSensors())
        }
    }

    /// The machine as the policy sees it: a display accelerometer with a kernel hinge sensor, or a base accelerometer
    /// beside it, tells the posture (as the capture pairs them: a base among IIO devices only); every switch but
    /// orientd's own counts.
    static func machine(
        accelerometers: [AccelerometerCandidate], switches: [TabletModeSwitchDevice], hingeSensors: [IIODeviceFacts] = []
    ) -> TabletModeSwitchPolicy.Machine {
        let iio = accelerometers.filter { $0.inputNode == nil }
        let display = iio.sorted { $0.id.localizedStandardLess($1.id) }.first { $0.location == .display }
        let base = display.flatMap { SensorSelection.base(from: iio, display: $0) }
        // A hinge sensor is read beside any display accelerometer, an input one too.
        let hinge = accelerometers.contains { $0.location == .display } ? hingeSensors.first : nil
        let source =
            hinge.map { postureSource(hinge: $0.id, name: $0.name ?? "?") }
            ?? display.flatMap { display in base.map { postureSource(display: display.id, base: $0.id) } }
        let others = switches.filter { !$0.isOrientds }.map(\.asPolicySwitch)
        return TabletModeSwitchPolicy.Machine(postureSource: source, switches: others)
    }

    /// What tells the posture where a base accelerometer is read beside the display's, as the log and doctor say it.
    public static func postureSource(display: String, base: String) -> String {
        "display and base accelerometers (\(display), \(base))"
    }

    /// What tells the posture where a kernel hinge sensor is read (it wins over a base accelerometer), as the log
    /// and doctor say it.
    public static func postureSource(hinge id: String, name: String) -> String {
        "the kernel's hinge sensor \(name) (\(id))"
    }

    private static func switches(in session: UdevSession) -> [TabletModeSwitchDevice] {
        session.switchDevices(code: 1).map { device in
            TabletModeSwitchDevice(
                name: device.name, node: device.node, isOrientds: device.name == TabletModeSwitch.deviceName,
                ignoredByLibinput: device.ignoredByLibinput)
        }
    }
}
