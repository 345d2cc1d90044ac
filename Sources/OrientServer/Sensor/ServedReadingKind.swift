import OrientConfiguration
import OrientCore
import OrientSampleSource

/// A one-value sensor's part in its ``SensorService``: read while D-Bus clients claim its kind or socket clients
/// want it, its presence (udev's word) always told to its sink, its events while it reads. Closed while nobody
/// wants it: its source then has no thread at all.
public protocol ServedReadingKind: ServedSensor {
    var source: any ReadingSource { get }
    /// What its source reads while it runs: set by ``apply(_:)`` from the kind's settings.
    var sourceSettings: LiveSettings<SourceSettings> { get }
    var sink: @Sendable (SensorNews) -> Void { get }
}

extension ServedReadingKind {
    public var kind: SensorKind { source.kind }

    public func isWanted(at level: SensorDemand.Level, with settings: Settings) -> Bool {
        level.claims(of: kind) + level.readers(of: kind) > 0
    }

    public func openingReason(at level: SensorDemand.Level) -> String {
        "\(level.claims(of: kind)) D-Bus claim(s), \(level.readers(of: kind)) socket client(s)"
    }

    public var closingReason: String { "no D-Bus claims, no socket clients" }

    /// Says `started` before the source starts, so that its events come after.
    func start(passing pass: @escaping @Sendable (ReadingEvent) -> NextRead) -> CaptureHandle {
        sink(.started)
        return source.start(sourceSettings, pass)
    }

    public func stopped() async { sink(.stopped) }

    public func incident(_ what: String) { sink(.incident(what)) }

    public func followPresence() async {
        for await present in source.presence() { sink(.present(present)) }
    }
}

/// A one-value sensor whose readings go out as they come, and that reads no setting: proximity, the compass.
public struct ServedReading: ServedReadingKind {
    /// Nothing: these kinds take no setting.
    public struct Settings: Sendable, Equatable {}

    public let source: any ReadingSource
    public let sourceSettings = LiveSettings(SourceSettings())
    public let sink: @Sendable (SensorNews) -> Void

    public init(source: any ReadingSource, sink: @escaping @Sendable (SensorNews) -> Void) {
        self.source = source
        self.sink = sink
    }

    public static let reads = SettingsRead()
    public static func slice(of settings: RunSettings) -> Settings { Settings() }
    public static var defaultSettings: Settings { Settings() }

    public func start(_ settings: Settings, ended: @escaping @Sendable () -> Void) -> CaptureHandle {
        let sink = self.sink
        return start { event in
            sink(SensorNews(event))
            return .onSchedule
        }
    }
}
