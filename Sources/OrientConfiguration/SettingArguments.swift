/// The settings as `orientd run` takes them on its command line, read with ``DaemonSetting/all``:
/// `--option VALUE` or `--option=VALUE`, `--flag` and `--no-flag`, and `--classifier NAME=VALUE`.
public enum SettingArguments {
    /// Options that were renamed to their setting's key, still taken under their old name so that scripts written
    /// for an earlier version (and iio-sensor-proxy's suite runner) go on working; the help shows only the key.
    public static let renamed = ["state-dir": "state-directory"]

    /// The renamed options `words` use, old and new, for the daemon to say once in its log.
    public static func renamedOptions(in words: [String]) -> [(old: String, new: String)] {
        words.compactMap { word in
            guard word.hasPrefix("--") else { return nil }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            return renamed[name].map { ("--" + name, "--" + $0) }
        }
    }

    /// Applies the words in order (a later one wins), without checking the whole; ``DaemonConfiguration/validate()``
    /// does that once the file and the command line are both in.
    public static func apply(_ words: [String], to configuration: inout DaemonConfiguration) throws(ConfigurationError) {
        var remaining = words[...]
        while let word = remaining.popFirst() {
            guard word.hasPrefix("--") else {
                throw ConfigurationError(message: "unexpected argument \"\(word)\"")
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            name = renamed[name] ?? name
            let option = "--" + name
            func value() throws(ConfigurationError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw ConfigurationError(key: option, message: "expected a value") }
                return next
            }
            let (setting, text) = try resolve(name, option: option, inlineValue: inlineValue, value: value)
            do {
                try setting.apply(text, to: &configuration)
            } catch {
                throw ConfigurationError(key: option, message: error.message)
            }
        }
    }

    /// The setting an option names and the text to give it.
    private static func resolve(
        _ name: String, option: String, inlineValue: String?, value: () throws(ConfigurationError) -> String
    ) throws(ConfigurationError) -> (DaemonSetting, String) {
        if name == DaemonSetting.classifierSection {
            let assignment = try value()
            guard let equals = assignment.firstIndex(of: "=") else {
                throw ConfigurationError(key: option, message: "expected NAME=VALUE, got \"\(assignment)\"")
            }
            let key = String(assignment[..<equals])
            guard let setting = DaemonSetting.named(key, in: DaemonSetting.classifierSection) else {
                let known = DaemonSetting.all.filter { $0.form == .classifier }.map(\.key).joined(separator: ", ")
                throw ConfigurationError(key: option, message: "unknown setting \"\(key)\"; known settings: \(known)")
            }
            return (setting, String(assignment[assignment.index(after: equals)...]))
        }
        let topLevel = DaemonSetting.all.filter { $0.form != .classifier }
        if let setting = topLevel.first(where: { $0.option == name }) {
            // A flag alone is yes; `--dbus=no` says which, as the file would.
            guard setting.form == .flag else { return (setting, try value()) }
            return (setting, inlineValue ?? "yes")
        }
        if name.hasPrefix("no-"), let setting = topLevel.first(where: { $0.option == name.dropFirst(3) && $0.form == .flag }) {
            guard inlineValue == nil else { throw ConfigurationError(key: option, message: "takes no value") }
            return (setting, "no")
        }
        throw ConfigurationError(message: "unknown option \(option) (`orientd run --help` lists them)")
    }

    /// The settings' options, one paragraph each, for `orientd run --help` and its manual page; those in
    /// `readAtStart` (as the running parts declare them) are said to be read at start only.
    public static func help(readAtStart: Set<String>) -> String {
        var lines = ["SETTINGS (each is also a key of the configuration file, which they override):"]
        for setting in DaemonSetting.all where setting.form != .classifier {
            let usage: String
            switch setting.form {
            case .value(let valueName): usage = "--\(setting.option) <\(valueName)>"
            case .flag, .classifier: usage = "--\(setting.option), --no-\(setting.option)"
            }
            let reload = readAtStart.contains(setting.name) ? " Read at start only." : ""
            lines.append("  \(usage)")
            lines += wrapped("\(setting.summary) (key \(setting.name))\(reload)", indent: 8)
        }
        lines.append("  --classifier <name=value>")
        lines.append("        A [classifier] setting, repeatable:")
        lines.append(classifierHelp(indent: 10))
        return lines.joined(separator: "\n")
    }

    /// The `[classifier]` settings, `name=default unit: what it does`, a line each (wrapped at 79 columns), for
    /// the help of every command that takes `--classifier`.
    public static func classifierHelp(indent: Int) -> String {
        let defaults = DaemonConfiguration()
        return DaemonSetting.all.filter { $0.form == .classifier }.flatMap { setting in
            wrapped("\(setting.key)=\(setting.show(defaults)): \(setting.summary)", indent: indent)
        }.joined(separator: "\n")
    }

    /// Words joined into lines of at most 79 columns, so that the help's own wrapping leaves them alone.
    private static func wrapped(_ text: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        for word in text.split(separator: " ") {
            if line.count > indent, line.count + 1 + word.count > 79 {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
