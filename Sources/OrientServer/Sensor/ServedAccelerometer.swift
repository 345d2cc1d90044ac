import Logging
import NIOCore
import OrientConfiguration
import OrientCore
import OrientSampleSource

/// The accelerometer as its ``SensorService`` serves it: its samples run through the engine on the capture's thread
/// (``SensorPipeline``) and every committed change goes to the publisher.
///
/// It is wanted by socket subscribers (as many as `sampling` or a waiting replay asks), D-Bus claims and a `get`
/// waiting for a fresh state. New settings restart an open capture. When a replayed trace ends the service either
/// keeps the last state published (the default) or returns, which shuts the daemon down (`--exit-at-end`).
public struct ServedAccelerometer: ServedSensor {
    private let source: any SampleSource
    private let eventLoop: any EventLoop
    private let publisher: NIOLoopBound<Publisher>
    /// Subscribers that open the sensor on their own (D-Bus claims and a waiting `get` always do): `nil` decides
    /// by `sampling`; a replay that waits for N subscribers before it plays sets N.
    private let subscribersToOpen: Int?
    /// Read the sensor with nobody subscribed, as `sampling = always` does (the tablet-mode switch must follow the
    /// hinge whether or not anyone listens).
    private let keepOpen: Bool
    private let exitAtEnd: Bool
    /// Tell the store whether an accelerometer is plugged in (for the D-Bus facade's `HasAccelerometer`).
    private let followsPresence: Bool
    private let logger: Logger

    public init(
        source: any SampleSource, eventLoop: any EventLoop, publisher: NIOLoopBound<Publisher>,
        subscribersToOpen: Int? = nil, keepOpen: Bool = false, exitAtEnd: Bool = false, followsPresence: Bool = false,
        logger: Logger
    ) {
        self.source = source
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.subscribersToOpen = subscribersToOpen
        self.keepOpen = keepOpen
        self.exitAtEnd = exitAtEnd
        self.followsPresence = followsPresence
        self.logger = logger
    }

    public var kind: SensorKind { .accelerometer }
    public var logName: String { "the sensor" }

    public static let reads = SettingsRead(whileRunning: [
        \.naturalOrientation, \.engine.mountMatrix, \.engine.mountRepair, \.rate, \.stillRateSetting, \.restRateSetting,
        \.sampling, \.engine.rotateIn, \.engine.posture.tabletModeOnAngle, \.engine.posture.tabletModeOffAngle,
    ] + DaemonSetting.all.filter { $0.section == DaemonSetting.classifierSection }.map(\.path))

    public static func slice(of settings: RunSettings) -> SensorSettings {
        let c = settings.configuration
        var engine = c.engine
        engine.natural = settings.panel.natural
        // `still-rate = off` reads at the full rate always: no rest either.
        let capture = CaptureSettings(rate: c.rate, stillRate: c.stillRate, restRate: c.stillRate == nil ? nil : c.restRate)
        return SensorSettings(engine: engine, sampling: c.sampling, capture: capture)
    }

    public static var defaultSettings: SensorSettings { SensorSettings() }

    public func isWanted(at level: SensorDemand.Level, with settings: SensorSettings) -> Bool {
        let threshold = subscribersToOpen ?? (settings.sampling == .always || keepOpen ? 0 : 1)
        return level.subscribers >= threshold || level.claims(of: .accelerometer) > 0 || level.freshStateWanted
    }

    public func openingReason(at level: SensorDemand.Level) -> String {
        let claims = level.claims(of: .accelerometer)
        return level.freshStateWanted && level.subscribers == 0 && claims == 0
            ? "for a get" : "\(level.subscribers) subscriber(s), \(claims) D-Bus claim(s)"
    }

    public var closingReason: String { "no subscribers, no D-Bus claims, no get waiting" }

    public func start(_ settings: SensorSettings, ended: @escaping @Sendable () -> Void) -> CaptureHandle {
        let pipeline = SensorPipeline(
            engine: settings.engine, eventLoop: eventLoop, publisher: publisher, logger: logger, sourceEnded: ended)
        return source.start(settings.capture) { pipeline.handle($0) }
    }

    /// The publisher learns that the state is no longer fresh. Awaited: until it knows, a `get` would still be
    /// answered as fresh without opening the sensor, and "closed" must not be logged before that is over.
    public func stopped() async {
        let publisher = self.publisher
        try? await eventLoop.submit { publisher.value.take(.stopped, of: .accelerometer) }.get()
    }

    public func incident(_ what: String) {
        let publisher = self.publisher
        eventLoop.execute { publisher.value.take(.incident(what), of: .accelerometer) }
    }

    public func followPresence() async {
        guard followsPresence else { return }
        let publisher = self.publisher
        for await present in source.presence() {
            eventLoop.execute { publisher.value.take(.present(present), of: .accelerometer) }
        }
    }

    public func sourceEnded() -> Bool {
        let publisher = self.publisher
        eventLoop.execute { publisher.value.take(.ended, of: .accelerometer) }
        if exitAtEnd {
            logger.info("the replay ended: stopping (--exit-at-end)")
            return true
        }
        logger.info("the replay ended: serving the last state until stopped")
        return false
    }
}
