import OrientCore

/// Reads the configuration file (syntax in `KeyValueFile`, keys in ``DaemonSetting/all``): every key optional,
/// unknown keys and sections refused, because a typo must not pass silently. Each error names the file, the line
/// and the key.
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
            let name = (assignment.section.map { $0 + "." } ?? "") + assignment.key
            func failure(_ message: String) -> ConfigurationError {
                ConfigurationError(file: file, line: assignment.line, key: name, message: message)
            }
            guard let setting = DaemonSetting.named(assignment.key, in: assignment.section) else {
                throw unknown(assignment, file: file)
            }
            guard !assignment.value.isEmpty else { throw failure("expected a value after =") }
            do {
                try setting.apply(assignment.value, to: &configuration)
            } catch {
                throw failure(error.message)
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

    private static func unknown(_ assignment: KeyValueFile.Assignment, file: String) -> ConfigurationError {
        let sections = Set(DaemonSetting.all.compactMap(\.section))
        if let section = assignment.section, !sections.contains(section) {
            let known = sections.sorted().map { "[\($0)]" }.joined(separator: ", ")
            return ConfigurationError(
                file: file, line: assignment.line, message: "unknown section [\(section)]; the only section is \(known)")
        }
        let name = (assignment.section.map { $0 + "." } ?? "") + assignment.key
        // The key of another section (a top-level key appended below [classifier], a classifier setting above it).
        if let elsewhere = DaemonSetting.all.first(where: { $0.key == assignment.key }) {
            let place = elsewhere.section.map { "under [\($0)]" } ?? "before the first [section] header"
            let what = elsewhere.section.map { "a [\($0)] setting" } ?? "a top-level key"
            return ConfigurationError(
                file: file, line: assignment.line, key: name,
                message: "\(assignment.key) is \(what), not \(assignment.section.map { "a [\($0)] one" } ?? "a top-level one"): move it \(place)")
        }
        let known = DaemonSetting.all.filter { $0.section == assignment.section }.map(\.key).joined(separator: ", ")
        let what = assignment.section == nil ? "key; known keys" : "setting; known settings"
        return ConfigurationError(file: file, line: assignment.line, key: name, message: "unknown \(what): \(known)")
    }

    /// The line of `text` that sets `name` (`control-group`, `classifier.settle-time`), if any: for a check made
    /// after reading, such as whether a group exists, to point at the line.
    public static func line(setting name: String, in text: String) -> Int? {
        guard let parsed = try? KeyValueFile(parsing: text) else { return nil }
        return parsed.assignments.last { ($0.section.map { $0 + "." } ?? "") + $0.key == name }?.line
    }
}
