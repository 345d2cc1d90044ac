import OrientConfiguration
import OrientCore
import OrientSampleSource

/// What one kind of sensor asks of its ``SensorService``: its own settings, when it is wanted, how it starts and
/// what follows its stop. The service's loop, the same for every kind, does the rest: it follows the demand and the
/// settings, opens and closes the source, and logs both.
///
/// The kinds: ``ServedAccelerometer`` (the engine and the publisher), ``ServedLight`` (its filter) and
/// ``ServedReading`` (proximity, compass).
public protocol ServedSensor: Sendable {
    /// The kind's own slice of the settings, handed to it at start and at every reload.
    associatedtype Settings: Equatable & Sendable

    /// The settings ``slice(of:)`` reads (``ConfiguredPart/reads``).
    static var reads: SettingsRead { get }
    /// This kind's slice. Pure, so that a test can find what it depends on.
    static func slice(of settings: RunSettings) -> Settings
    /// The slice before the first ``apply(_:)``: the defaults'.
    static var defaultSettings: Settings { get }
    /// Whether a capture running with `old` settings is started again to take `new` ones (they differ); if not,
    /// ``apply(_:)`` puts them in force while it runs.
    static func restarts(from old: Settings, to new: Settings) -> Bool

    var kind: SensorKind { get }
    /// How the log names it: "the light sensor".
    var logName: String { get }

    /// Takes new settings at once, on the caller's task (before the loop learns of them).
    func apply(_ settings: Settings)
    /// Whether anyone wants it read at `level`, with `settings`.
    func isWanted(at level: SensorDemand.Level, with settings: Settings) -> Bool
    /// Why it is opened, for the log: "2 subscriber(s), 1 D-Bus claim(s)".
    func openingReason(at level: SensorDemand.Level) -> String
    /// Why it was closed, for the log: "no D-Bus claims, no socket clients".
    var closingReason: String { get }

    /// Starts reading. `ended` is for a source that can end (a replayed trace).
    func start(_ settings: Settings, ended: @escaping @Sendable () -> Void) -> CaptureHandle
    /// After a capture has stopped (its thread gone), before "closed" is logged.
    func stopped() async
    /// The source ended: whether the service returns now (which stops the daemon); otherwise it serves on closed.
    func sourceEnded() -> Bool
    /// Follows whether such a sensor is plugged in and tells whoever needs to know, until cancelled, for a kind
    /// whose service relays it; returns at once otherwise.
    func followPresence() async
    /// Something the service did on its own that `status` counts (a sensor opened again after a resume), as the
    /// log said it.
    func incident(_ what: String)
}

extension ServedSensor {
    public static func restarts(from old: Settings, to new: Settings) -> Bool { true }
    public var logName: String { "the \(kind.displayName)" }
    public func apply(_ settings: Settings) {}
    public func sourceEnded() -> Bool { false }
    public func followPresence() async {}
}
