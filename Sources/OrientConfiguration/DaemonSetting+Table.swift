import OrientCore

extension DaemonSetting {
    /// Every setting `orientd run` takes, in the order the sample orientd.conf and `check-config` list them.
    public static let all: [DaemonSetting] = [
        DaemonSetting(
            "socket", .value("path"), at: \.socketPath, example: "/run/orientd/other.sock",
            summary: "The Unix socket to listen on (ignored under socket activation).",
            parse: { $0 }, show: { $0 }),
        DaemonSetting(
            "socket-mode", .value("octal"), at: \.socketMode, example: "0660",
            summary: "Permissions of the socket orientd creates.",
            parse: { (text) throws(SettingValueError) in
                guard let mode = UInt16(text, radix: 8), mode <= 0o777 else {
                    throw SettingValueError("expected an octal mode such as 0666, got \"\(text)\"")
                }
                return mode
            }, show: { "0" + String($0, radix: 8) }),
        DaemonSetting(
            "mask", .value("mask"), at: \.systemMask, example: "landscape",
            summary: "The system mask: a name or a union such as portrait|landscape.",
            parse: { (text) throws(SettingValueError) in
                do { return try InterfaceOrientationMask(parsing: text) } catch { throw SettingValueError("\(error)") }
            }, show: { $0.name }),
        DaemonSetting(
            "preferred", .value("orientation"), at: \.preferred, example: "landscape-right",
            summary: "The interface orientation used when the device orientation decides nothing.",
            parse: { (text) throws(SettingValueError) in
                do { return try InterfaceOrientation(parsingDrawable: text) } catch { throw SettingValueError("\(error)") }
            }, show: { $0?.rawValue ?? "none" }),
        DaemonSetting(
            "natural-orientation", .value("auto|portrait|landscape"), at: \.naturalOrientation,
            example: "landscape",
            summary: "The panel's shape as installed, which decides what portrait and landscape mean: auto finds the "
                + "internal panel (a replayed trace's own line first), else portrait.",
            parse: SettingValue.named, show: { $0.rawValue }),
        DaemonSetting(
            "device", .value("name|id|path"), at: \.device, example: "iio:device1",
            summary: "The accelerometer: a driver name, an id such as iio:device0, or a sysfs path.",
            parse: { $0 }, show: { $0 ?? "automatic (the display accelerometer)" }),
        DaemonSetting(
            "mount-matrix", .value("matrix"), at: \.engine.mountMatrix,
            example: "0, -1, 0; -1, 0, 0; 0, 0, 1",
            summary: "A mount matrix that wins over every other source ('x1, y1, z1; x2, ...').",
            parse: { (text) throws(SettingValueError) in
                do { return try MountMatrix(parsing: text) } catch { throw SettingValueError("\(error)") }
            }, show: { $0.map { "\($0)" } ?? "from udev or sysfs" }),
        DaemonSetting(
            "mount-repair", .flag, at: \.engine.mountRepair, example: "no",
            summary: "Replace each mount matrix's z row by x × y (most published matrices are mirror images).",
            parse: SettingValue.bool, show: SettingValue.yesNo),
        DaemonSetting(
            "rate", .value("hz"), at: \.rate, example: "100",
            summary: "Samples per second to ask of the sensor.",
            parse: SettingValue.number, show: { "\($0) Hz" }),
        DaemonSetting(
            "still-rate", .value("hz|off"), at: \.stillRateSetting, example: "10",
            summary: "Samples per second once the device has been still for a second, or off.",
            parse: RateSetting.parse,
            showing: { setting, c in
                c.stillRate.map { "\($0) Hz (once still for a second)" }
                    ?? (setting == .off ? "off" : "off (the default \(DaemonConfiguration.standardStillRate) Hz does not fit rate or classifier.max-sample-gap)")
            }),
        DaemonSetting(
            "rest-rate", .value("hz|off"), at: \.restRateSetting, example: "1.5",
            summary: "Samples per second once the device has been still for 10 s, or off (the still rate).",
            parse: RateSetting.parse,
            showing: { setting, c in
                c.restRate.map { "\($0) Hz (once still for 10 s)" }
                    ?? (setting == .off ? "off" : "off (the default \(DaemonConfiguration.standardRestRate) Hz is slower than classifier.max-sample-gap allows)")
            }),
        DaemonSetting(
            "sampling", .value("on-demand|always"), at: \.sampling, example: "always",
            summary: "When the sensor is open: on-demand (while a client is subscribed) or always.",
            parse: SettingValue.named, show: { $0.rawValue }),
        DaemonSetting(
            "dbus", .flag, at: \.dbus, example: "yes",
            summary: "Serve net.hadess.SensorProxy (iio-sensor-proxy's interface) on the system bus.",
            parse: SettingValue.bool, show: { $0 ? "yes (net.hadess.SensorProxy on the system bus)" : "no" }),
        DaemonSetting(
            "control-group", .value("group"), at: \.controlGroup, example: "adm",
            summary: "Who may lock, unlock and set the mask besides root: a group name or number.",
            parse: { $0 }, show: { $0 ?? "none (root only)" }),
        DaemonSetting(
            "max-clients", .value("n"), at: \.maxClients, example: "50",
            summary: "Refuse connections beyond this many clients.",
            parse: { (text) throws(SettingValueError) in
                let n = try SettingValue.number(text)
                guard n == n.rounded(), n >= 1, n <= 1_000_000 else {
                    throw SettingValueError("expected a whole number from 1 to 1000000, got \"\(text)\"")
                }
                return Int(n)
            }, show: { "\($0)" }),
        DaemonSetting(
            "request-timeout", .value("seconds"), at: \.requestTimeout, example: "2.5",
            summary: "Close a connection whose request line stays unfinished this many seconds.",
            parse: { (text) throws(SettingValueError) in
                let seconds = try SettingValue.number(text)
                guard seconds > 0, seconds <= 3600 else {
                    throw SettingValueError("expected seconds, more than 0 and at most 3600, got \"\(text)\"")
                }
                return seconds
            }, show: { "\($0) s" }),
        DaemonSetting(
            "state-directory", .value("path"), at: \.stateDirectory,
            example: "/var/lib/orientd-other",
            summary: "Where the rotation lock and a run-time mask are kept.",
            parse: { $0 }, show: { $0 }),
        DaemonSetting(
            "rotate-in", .value("always|tablet-mode"), at: \.engine.rotateIn, example: "always",
            summary: "On a convertible, when the screen turns with the device: always, or in tablet mode only (as a "
                + "laptop it stays upright for the keyboard). Default: tablet-mode with a base sensor, else always.",
            parse: { (text) throws(SettingValueError) in try SettingValue.named(text) as RotateIn },
            show: { $0?.rawValue ?? "tablet-mode with a base (keyboard) sensor, always without one" }),
        DaemonSetting(
            "tablet-mode-on-angle", .value("degrees"), at: \.engine.posture.tabletModeOnAngle,
            example: "210", summary: "Tablet mode comes on once the hinge opens this far (180 is flat).",
            parse: SettingValue.number, show: { "\($0)°" }),
        DaemonSetting(
            "tablet-mode-off-angle", .value("degrees"), at: \.engine.posture.tabletModeOffAngle,
            example: "150", summary: "Tablet mode goes off once the hinge closes this far.",
            parse: SettingValue.number, show: { "\($0)°" }),
        DaemonSetting(
            "tablet-mode-switch", .flag, at: \.tabletModeSwitch, example: "no",
            summary: "Report tablet mode as a SW_TABLET_MODE switch for libinput and the desktops: auto where a base "
                + "accelerometer tells the posture and no other input device reports SW_TABLET_MODE; yes always; no "
                + "never. orientd-tablet-mode-switch.service makes it as the socket says (PROTOCOL.md).",
            parse: { (text) throws(SettingValueError) in
                if text == "auto" { return TabletModeSwitchSetting.auto }
                do {
                    return try SettingValue.bool(text) ? TabletModeSwitchSetting.yes : .no
                } catch {
                    throw SettingValueError("expected auto, yes or no, got \"\(text)\"")
                }
            },
            show: { setting in
                switch setting {
                case .auto: "auto (with a base accelerometer and no other tablet-mode switch)"
                case .yes: "yes"
                case .no: "no"
                }
            }),
        DaemonSetting(
            "light-threshold", .value("percent"), at: \.lightThreshold, example: "50%",
            summary: "Publish a new ambient light level once it differs from the last by this much, either way, for "
                + "longer than a hand's shadow (a slow drift once it reaches a fifth of this); 0 publishes every change "
                + "at once, as iio-sensor-proxy does.",
            parse: SettingValue.fraction(percentUpTo: 1000), show: SettingValue.percent),
    ] + ClassifierSettings.Key.allCases.map(classifier)

    /// The file's one section.
    public static let classifierSection = "classifier"

    private static func classifier(_ key: ClassifierSettings.Key) -> DaemonSetting {
        // A quarter above the default stays inside each range and keeps the settings' pairs in order.
        let example = ClassifierSettings()[key] * 1.25
        return DaemonSetting(
            section: classifierSection, key.rawValue, .classifier, at: \.engine.classifier[key],
            example: "\(example)", summary: key.summary,
            parse: SettingValue.number, show: { "\($0) \(key.unit)" })
    }

    /// The name of the setting whose value lands at `path`; a path no setting has is a programming error.
    public static func name(at path: PartialKeyPath<DaemonConfiguration>) -> String {
        guard let setting = all.first(where: { $0.path == path }) else {
            preconditionFailure("no setting of DaemonSetting.all lands at \(path)")
        }
        return setting.name
    }

    /// The setting a file assignment names, or nil.
    public static func named(_ key: String, in section: String?) -> DaemonSetting? {
        all.first { $0.section == section && $0.key == key }
    }
}
