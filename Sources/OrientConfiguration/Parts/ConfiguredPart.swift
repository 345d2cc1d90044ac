/// A running part of the daemon that takes settings: the connection policy, the publisher, the sensor service,
/// the D-Bus facade. Settings reach it one way only, ``configure(_:)``, called once at start and again at every
/// reload; it takes its own slice of them and answers what it did, which is what the reload's log line says.
public protocol ConfiguredPart: Sendable {
    /// The part's own settings, as plain values.
    associatedtype Slice: Equatable & Sendable

    /// The settings ``slice(of:)`` reads, and whether the part takes each one while running. A test checks it against
    /// ``slice(of:)`` setting by setting (``SliceCheck``).
    static var reads: SettingsRead { get }

    /// This part's slice of the settings. Pure, so that a test can find what it depends on.
    static func slice(of settings: RunSettings) -> Slice

    /// Puts a slice in force: at start, and at every reload (with the same slice when nothing of it changed, which
    /// must then change nothing). Returns the settings it kept at their old values, and why, if any.
    func apply(_ slice: Slice) async -> Refusal?
}

/// What a part reads of the configuration, named by where each value lands in ``DaemonConfiguration``, so that the
/// compiler checks each one; kept as the settings' names (``DaemonSetting/name``), which the log and `--help` show.
public struct SettingsRead: Sendable, Equatable {
    /// Taken again at every reload.
    public var whileRunning: [String]
    /// Read once, when the part starts: a new value waits for the next start.
    public var atStart: [String]

    public init(
        whileRunning: [PartialKeyPath<DaemonConfiguration>] = [], atStart: [PartialKeyPath<DaemonConfiguration>] = []
    ) {
        self.whileRunning = whileRunning.map(DaemonSetting.name(at:))
        self.atStart = atStart.map(DaemonSetting.name(at:))
    }

    public var all: [String] { whileRunning + atStart }
}

/// Settings a part would not change, with the reason (a mask that would leave a subscriber nothing to show).
public struct Refusal: Sendable, Equatable {
    public var settings: [String]
    public var reason: String

    public init(_ settings: [String], reason: String) {
        self.settings = settings
        self.reason = reason
    }
}

/// A part's answer to ``ConfiguredPart/configure(_:)``.
public struct PartAnswer: Sendable, Equatable {
    /// The part's type, for the log.
    public var part: String
    public var reads: SettingsRead
    public var refusal: Refusal?

    public init(part: String, reads: SettingsRead, refusal: Refusal? = nil) {
        self.part = part
        self.reads = reads
        self.refusal = refusal
    }
}

extension ConfiguredPart {
    /// Takes this part's slice of `settings` and answers what became of each setting it reads.
    public func configure(_ settings: RunSettings) async -> PartAnswer {
        let refusal = await apply(Self.slice(of: settings))
        return PartAnswer(part: String(describing: Self.self), reads: Self.reads, refusal: refusal)
    }
}
