import OrientCore
import Yams

/// Reads the configuration file: YAML, every key optional, unknown keys refused (a typo must not pass silently).
///
/// YAML was chosen over TOML because Yams keeps the line of every node, so each error names its line; the TOML
/// parsers available here either lose positions or bring dependencies that cannot be fetched.
///
/// ```yaml
/// socket: /run/orientd/orientd.sock
/// mask: all-but-upside-down
/// preferred: landscape-right
/// sampling: on-demand
/// classifier:
///   settle-time: 0.06
/// ```
public enum ConfigurationFile {
    /// The top-level keys, as documented in the sample orientd.conf.
    public static let keys = [
        "socket", "socket-mode", "mask", "preferred", "device", "mount-matrix", "mount-repair", "rate", "sampling",
        "control-group", "max-clients", "state-directory", "classifier",
    ]

    /// Applies the file's settings on top of `base`.
    public static func parse(
        _ text: String, file: String, base: DaemonConfiguration = DaemonConfiguration()
    ) throws(ConfigurationError) -> DaemonConfiguration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationError(file: file, line: Self.line(of: error), message: "not valid YAML: \(Self.summary(of: error))")
        } catch {
            throw ConfigurationError(file: file, message: "not valid YAML: \(error)")
        }
        var configuration = base
        guard let root else { return configuration }  // An empty file (or only comments) changes nothing.
        guard let mapping = root.mapping else {
            throw ConfigurationError(file: file, line: root.mark?.line, message: "expected key: value lines at the top level")
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let place = Place(file: file, line: keyNode.mark?.line, key: key)
            try apply(key: key, value: value, at: place, to: &configuration)
        }
        do {
            try configuration.validate()
        } catch {
            var error = error
            error.file = file
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
        key: String, value: Node, at place: Place, to c: inout DaemonConfiguration
    ) throws(ConfigurationError) {
        switch key {
        case "socket": c.socketPath = try string(value, place)
        case "socket-mode":
            let text = try string(value, place)
            guard let mode = UInt16(text, radix: 8), mode <= 0o777 else { throw place.error("expected an octal mode such as 0666") }
            c.socketMode = mode
        case "mask":
            do { c.systemMask = try InterfaceOrientationMask(parsing: try string(value, place)) } catch let error as MaskParseError {
                throw place.error(error.description)
            } catch { throw place.error("\(error)") }
        case "preferred":
            let text = try string(value, place)
            guard let orientation = InterfaceOrientation(rawValue: text), orientation != .unknown else {
                throw place.error("unknown orientation \"\(text)\"")
            }
            c.preferred = orientation
        case "device": c.device = try string(value, place)
        case "mount-matrix":
            do { c.mountMatrix = try MountMatrix(parsing: try string(value, place)) } catch let error as MountMatrixParseError {
                throw place.error(error.description)
            } catch { throw place.error("\(error)") }
        case "mount-repair": c.mountRepair = try bool(value, place)
        case "rate": c.rate = try number(value, place)
        case "sampling":
            let text = try string(value, place)
            guard let policy = SamplingPolicy(rawValue: text) else { throw place.error("expected on-demand or always, got \"\(text)\"") }
            c.sampling = policy
        case "control-group": c.controlGroup = try string(value, place)
        case "max-clients":
            let n = try number(value, place)
            guard n == n.rounded(), n >= 1, n <= 1_000_000 else { throw place.error("expected a whole number from 1 to 1000000") }
            c.maxClients = Int(n)
        case "state-directory": c.stateDirectory = try string(value, place)
        case "classifier":
            guard let section = value.mapping else { throw place.error("expected a section of name: value lines") }
            for (nameNode, settingNode) in section {
                let name = nameNode.string ?? ""
                let settingPlace = Place(file: place.file, line: nameNode.mark?.line, key: "classifier.\(name)")
                guard let settingKey = ClassifierSettings.Key(rawValue: name) else {
                    let known = ClassifierSettings.Key.allCases.map(\.rawValue).joined(separator: ", ")
                    throw settingPlace.error("unknown setting; known settings: \(known)")
                }
                c.classifier[settingKey] = try number(settingNode, settingPlace)
            }
        default:
            throw place.error("unknown key; known keys: \(keys.joined(separator: ", "))")
        }
    }

    private static func string(_ node: Node, _ place: Place) throws(ConfigurationError) -> String {
        guard let scalar = node.scalar else { throw place.error("expected a single value") }
        return scalar.string
    }

    private static func number(_ node: Node, _ place: Place) throws(ConfigurationError) -> Double {
        let text = try string(node, place)
        guard let value = Double(text), value.isFinite else { throw place.error("\"\(text)\" is not a number") }
        return value
    }

    private static func bool(_ node: Node, _ place: Place) throws(ConfigurationError) -> Bool {
        switch try string(node, place) {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let text: throw place.error("expected true or false, got \"\(text)\"")
        }
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    private static func summary(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
        default: "\(error)"
        }
    }
}
