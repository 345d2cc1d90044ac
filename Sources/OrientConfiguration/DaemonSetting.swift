import OrientCore

/// One setting of `orientd run`, declared once (in ``DaemonSetting/all``): its key in the configuration file,
/// its command-line option, how its text is parsed and what a bad value is told, where the value lands in
/// ``DaemonConfiguration`` and how `check-config` shows it. Whether a reload applies it is not said here: the
/// running part that reads it answers that (``ConfiguredPart``).
///
/// The configuration file, the command line, `check-config`, the manual and the reload all read this table, so
/// a new setting is one entry here, one stored property where it lands, and the part that reads it.
public struct DaemonSetting: Sendable {
    /// How the setting is written on the command line.
    public enum Form: Sendable, Equatable {
        /// `--option VALUE`, with this value name in the help (`<hz|off>`).
        case value(String)
        /// `--option` and `--no-option` (or `--option=no`); yes or no in the file (``SettingValue/bool(_:)``).
        case flag
        /// One of the `[classifier]` section's settings: `--classifier NAME=VALUE` on the command line.
        case classifier
    }

    /// `nil` for the top level, else the file's `[section]`.
    public let section: String?
    /// The key in its section of the file.
    public let key: String
    /// The long option without its dashes: the key itself, so that a setting has one name on the command line and
    /// in the file; for a classifier setting, the `NAME` of its `--classifier NAME=VALUE`.
    public var option: String { key }
    public let form: Form
    /// What it does, in one line, for `orientd run --help` and the manual.
    public let summary: String
    /// A valid value other than the default (the tests reload each setting with it).
    public let example: String
    /// Where the value lands in ``DaemonConfiguration``: how a part names the settings it reads (``SettingsRead``).
    public let path: PartialKeyPath<DaemonConfiguration> & Sendable
    private let assign: @Sendable (String, inout DaemonConfiguration) throws(SettingValueError) -> Void
    private var render: @Sendable (DaemonConfiguration) -> String
    private let equal: @Sendable (DaemonConfiguration, DaemonConfiguration) -> Bool
    private let transfer: @Sendable (DaemonConfiguration, inout DaemonConfiguration) -> Void

    /// The name errors and logs use: `still-rate`, `classifier.settle-time`.
    public var name: String { section.map { "\($0).\(key)" } ?? key }

    /// Parses `text` and stores the value in `configuration`. Values that must agree with others are checked
    /// afterwards, by ``DaemonConfiguration/validate()``.
    public func apply(_ text: String, to configuration: inout DaemonConfiguration) throws(SettingValueError) {
        try assign(text, &configuration)
    }

    /// The value as `check-config` prints it.
    public func show(_ configuration: DaemonConfiguration) -> String { render(configuration) }

    /// Whether the two configurations differ in this setting.
    public func differs(_ a: DaemonConfiguration, _ b: DaemonConfiguration) -> Bool { !equal(a, b) }

    /// Sets this setting in `target` to its value in `source`.
    public func copy(from source: DaemonConfiguration, to target: inout DaemonConfiguration) { transfer(source, &target) }

    init<Value: Equatable & Sendable>(
        section: String? = nil, _ key: String, _ form: Form,
        at path: WritableKeyPath<DaemonConfiguration, Value> & Sendable, example: String, summary: String,
        parse: @escaping @Sendable (String) throws(SettingValueError) -> Value,
        show: @escaping @Sendable (Value) -> String
    ) {
        self.section = section
        self.key = key
        self.form = form
        self.summary = summary
        self.example = example
        self.path = path
        self.assign = { (text, configuration) throws(SettingValueError) in configuration[keyPath: path] = try parse(text) }
        self.render = { show($0[keyPath: path]) }
        self.equal = { $0[keyPath: path] == $1[keyPath: path] }
        self.transfer = { $1[keyPath: path] = $0[keyPath: path] }
    }

    /// As above, for a value whose text depends on other settings: a default that gives way (``RateSetting``).
    init<Value: Equatable & Sendable>(
        section: String? = nil, _ key: String, _ form: Form,
        at path: WritableKeyPath<DaemonConfiguration, Value> & Sendable, example: String, summary: String,
        parse: @escaping @Sendable (String) throws(SettingValueError) -> Value,
        showing: @escaping @Sendable (Value, DaemonConfiguration) -> String
    ) {
        self.init(
            section: section, key, form, at: path, example: example, summary: summary, parse: parse, show: { _ in "" })
        self.render = { showing($0[keyPath: path], $0) }
    }
}

/// A value a setting cannot take; the caller adds where it came from (file and line, or option).
public struct SettingValueError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The parsers the settings share, each with the one error text its kind of value gets.
enum SettingValue {
    static func number(_ text: String) throws(SettingValueError) -> Double {
        guard let value = Double(text), value.isFinite else { throw SettingValueError("\"\(text)\" is not a number") }
        return value
    }

    /// yes or no, the words the docs, the sample file and `check-config` use; true/false, on/off and 1/0 are
    /// taken too, as systemd takes them, in the file and on the command line alike.
    static func bool(_ text: String) throws(SettingValueError) -> Bool {
        switch text {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw SettingValueError("expected yes or no, got \"\(text)\"")
        }
    }

    /// One of a `RawRepresentable` enum's names.
    static func named<Value: RawRepresentable & CaseIterable>(_ text: String) throws(SettingValueError) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text) else {
            let all = Value.allCases.map(\.rawValue)
            let names = all.count > 2 ? all.dropLast().joined(separator: ", ") + " or " + all.last! : all.joined(separator: " or ")
            throw SettingValueError("expected \(names), got \"\(text)\"")
        }
        return value
    }

    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    /// A percentage from 0 to `limit`, written `20` or `20%`, as a fraction (0.2).
    static func fraction(percentUpTo limit: Double) -> @Sendable (String) throws(SettingValueError) -> Double {
        { (text) throws(SettingValueError) in
            let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
            guard let value = Double(digits), value >= 0, value <= limit else {
                throw SettingValueError("expected a percentage from 0 to \(SettingValue.percent(limit / 100)), such as 20%, got \"\(text)\"")
            }
            return value / 100
        }
    }

    /// A fraction as a percentage: `20%`, `12.5%`.
    static func percent(_ fraction: Double) -> String {
        let percent = fraction * 100
        return percent == percent.rounded() && abs(percent) < 1e15 ? "\(Int(percent))%" : "\(percent)%"
    }
}
