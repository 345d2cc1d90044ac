import OrientConfiguration
import OrientCore
import OrientSampleSource
import Synchronization

/// The ambient light sensor: its levels pass through a ``LightFilter`` first, so that the sink sees a new level
/// only on a real change; the filter may ask the source to read again sooner, to confirm one. It takes the
/// filter's threshold (`light-threshold`) and its source's settings while it reads, without closing the sensor or
/// resetting the filter.
public final class ServedLight: ServedReadingKind {
    /// The light sensor's slice of the settings.
    public struct Settings: Sendable, Equatable {
        /// The filter's threshold (`light-threshold`).
        public var threshold: Double
        /// How its source reads (no setting sets it yet: the drivers' own intervals).
        public var source = SourceSettings()

        public init(threshold: Double, source: SourceSettings = SourceSettings()) {
            self.threshold = threshold
            self.source = source
        }
    }

    public let source: any ReadingSource
    public let sourceSettings = LiveSettings(SourceSettings())
    public let sink: @Sendable (SensorNews) -> Void
    private let filter = Mutex(LightFilter(threshold: DaemonConfiguration().lightThreshold))
    /// The open sensor's levels go out as read (a fake sensor's), not through the filter.
    private let unfiltered = Mutex(false)
    private let now: @Sendable () -> Double

    /// - Parameter now: seconds on a monotonic clock, for the filter (a test gives its own).
    public init(
        source: any ReadingSource, now: @escaping @Sendable () -> Double = ServedLight.clockSeconds,
        sink: @escaping @Sendable (SensorNews) -> Void
    ) {
        self.source = source
        self.now = now
        self.sink = sink
    }

    /// Seconds on the continuous clock, which never goes back.
    public static func clockSeconds() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private static let origin = ContinuousClock.now

    public static let reads = SettingsRead(whileRunning: [\.lightThreshold])
    public static func slice(of settings: RunSettings) -> Settings { Settings(threshold: settings.configuration.lightThreshold) }
    public static var defaultSettings: Settings { Settings(threshold: DaemonConfiguration().lightThreshold) }
    /// Every setting is taken while it reads.
    public static func restarts(from old: Settings, to new: Settings) -> Bool { false }

    public func apply(_ settings: Settings) {
        filter.withLock { $0.threshold = settings.threshold }
        sourceSettings.set(settings.source)
    }

    public func start(_ settings: Settings, ended: @escaping @Sendable () -> Void) -> CaptureHandle {
        sourceSettings.set(settings.source)
        return start { self.pass($0) }
    }

    /// What `status` and doctor count when a sensor opened again first reads 0 where it read light before.
    static let doubtedZero = "read 0 as it opened again, after light: read again before 0 is published"

    /// Hands `event` to the sink, a light level only when the filter publishes it; on the source's thread.
    private func pass(_ event: ReadingEvent) -> NextRead {
        switch event {
        case .opened(let description):
            // A sensor opened (again): its first reading is published at once, as iio-sensor-proxy does.
            filter.withLock { $0.reset() }
            unfiltered.withLock { $0 = description.publishedAsRead }
        case .reading(.light(let level, let unit)) where !unfiltered.withLock({ $0 }):
            let time = now()
            let decision = filter.withLock { $0.take(level, at: time) }
            if decision.doubtedZero { sink(.incident(Self.doubtedZero)) }
            if let published = decision.publish { sink(.read(.light(level: published, unit: unit))) }
            guard let again = decision.readAgainAt else { return .onSchedule }
            // A doubted 0 is read again from the sensor itself: a buffered one would give its last scan, the 0, again.
            return decision.doubtedZero ? .fresh(within: again - time) : .within(seconds: again - time)
        default:
            break
        }
        sink(SensorNews(event))
        return .onSchedule
    }
}
