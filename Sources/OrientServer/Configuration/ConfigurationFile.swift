import OrientCore

/// Reads the configuration file (syntax in `KeyValueFile`): every key optional, unknown keys and sections refused,
/// because a typo must not pass silently. Each error names the file, the line and the key.
///
/// ```
/// socket = /run/orientd/orientd.sock
/// mask = all-but-upside-down
/// sampling = on-demand
///
/// [classifier]
/// settle-time = 0.06
/// ```
public enum ConfigurationFile {
    /// The top-level keys, as documented in the sample orientd.conf.
    public static let keys = [
        "socket", "socket-mode", "mask", "preferred", "device", "mount-matrix", "mount-repair", "rate", "still-rate",
        "sampling", "dbus", "control-group", "max-clients", "request-timeout", "state-directory", "rotate-in", "tablet-mode-switch",
        "tablet-mode-on-angle", "tablet-mode-off-angle",
    ]
    /// The one section; its keys are `ClassifierSettings.Key`s.
    public static let classifierSection = "classifier"

    /// Applies the file's settings on top of `base`.
    public static func parse(
        _ text: String, file: String, base: DaemonConfiguration = DaemonConfiguration()
    ) throws(ConfigurationError) -> DaemonConfiguration {
        let parsed: KeyValueFile
        do {
            parsed = try KeyValueFile(parsing: text)
        } catch {
            throw ConfigurationError(file: file, line: error.line, message: error.message)
        }
        var configuration = base
        for assignment in parsed.assignments {
            let place = Place(
                file: file, line: assignment.line, key: (assignment.section.map { $0 + "." } ?? "") + assignment.key)
            switch assignment.section {
            case nil: try apply(key: assignment.key, value: assignment.value, at: place, to: &configuration)
            case classifierSection?:
                guard !assignment.value.isEmpty else { throw place.error("expected a value after =") }
                guard let settingKey = ClassifierSettings.Key(rawValue: assignment.key) else {
                    let known = ClassifierSettings.Key.allCases.map(\.rawValue).joined(separator: ", ")
                    throw place.error("unknown setting; known settings: \(known)")
                }
                configuration.classifier[settingKey] = try number(assignment.value, place)
            case let section?:
                throw ConfigurationError(
                    file: file, line: assignment.line, message: "unknown section [\(section)]; the only section is [\(classifierSection)]")
            }
        }
        do {
            try configuration.validate()
        } catch {
            var error = error
            error.file = file
            // A value that does not fit with the others: name the line that set it, when the file did.
            error.line = parsed.assignments.last { ($0.section.map { $0 + "." } ?? "") + $0.key == error.key }?.line
            throw error
        }
        return configuration
    }

    struct Place {
        let file: String
        let line: Int?
        let key: String

        func error(_ message: String) -> ConfigurationError {
            ConfigurationError(file: file, line: line, key: key, message: message)
        }
    }

    private static func apply(
        key: String, value: String, at place: Place, to c: inout DaemonConfiguration
    ) throws(ConfigurationError) {
        guard !value.isEmpty else { throw place.error("expected a value after =") }
        switch key {
        case "socket": c.socketPath = value
        case "socket-mode":
            guard let mode = UInt16(value, radix: 8), mode <= 0o777 else { throw place.error("expected an octal mode such as 0666") }
            c.socketMode = mode
        case "mask":
            do { c.systemMask = try InterfaceOrientationMask(parsing: value) } catch { throw place.error(error.description) }
        case "preferred":
            guard let orientation = InterfaceOrientation(rawValue: value), orientation != .unknown else {
                throw place.error("unknown orientation \"\(value)\"")
            }
            c.preferred = orientation
        case "device": c.device = value
        case "mount-matrix":
            do { c.mountMatrix = try MountMatrix(parsing: value) } catch { throw place.error(error.description) }
        case "mount-repair": c.mountRepair = try bool(value, place)
        case "rate": c.rate = try number(value, place)
        case "still-rate": c.stillRate = value == "off" ? nil : try number(value, place)
        case "sampling":
            guard let policy = SamplingPolicy(rawValue: value) else { throw place.error("expected on-demand or always, got \"\(value)\"") }
            c.sampling = policy
        case "dbus": c.dbus = try bool(value, place)
        case "control-group": c.controlGroup = value
        case "max-clients":
            let n = try number(value, place)
            guard n == n.rounded(), n >= 1, n <= 1_000_000 else { throw place.error("expected a whole number from 1 to 1000000") }
            c.maxClients = Int(n)
        case "request-timeout":
            let seconds = try number(value, place)
            guard seconds > 0, seconds <= 3600 else { throw place.error("expected seconds, more than 0 and at most 3600") }
            c.requestTimeout = seconds
        case "state-directory": c.stateDirectory = value
        case "rotate-in":
            guard let rotateIn = RotateIn(rawValue: value) else { throw place.error("expected always or tablet-mode, got \"\(value)\"") }
            c.rotateIn = rotateIn
        case "tablet-mode-switch": c.tabletModeSwitch = try bool(value, place)
        // Ranges, and off below on, are checked with the whole file (PostureSettings.validate).
        case "tablet-mode-on-angle": c.posture.tabletModeOnAngle = try number(value, place)
        case "tablet-mode-off-angle": c.posture.tabletModeOffAngle = try number(value, place)
        default:
            throw place.error("unknown key; known keys: \(keys.joined(separator: ", "))")
        }
    }

    private static func number(_ text: String, _ place: Place) throws(ConfigurationError) -> Double {
        guard let value = Double(text), value.isFinite else { throw place.error("\"\(text)\" is not a number") }
        return value
    }

    private static func bool(_ text: String, _ place: Place) throws(ConfigurationError) -> Bool {
        switch text {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw place.error("expected true or false, got \"\(text)\"")
        }
    }
}
