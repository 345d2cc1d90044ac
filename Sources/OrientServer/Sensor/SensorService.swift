import Logging
import NIOCore
import OrientCore
import OrientProtocol
import OrientSampleSource
import ServiceLifecycle

/// Runs the sample source through the engine and hands every committed change to the publisher.
///
/// The source is consumed only while enough clients are subscribed (on-demand sampling), and restarted when a
/// reload changes the pipeline. When a replayed trace ends the service either keeps the last state published
/// (the default) or returns, which shuts the daemon down (`--exit-at-end`).
public struct SensorService: Service {
    public enum Control: Sendable {
        case subscribers(Int)
        /// Clients of the D-Bus facade that claim the accelerometer.
        case claims(Int)
        /// A `get` waits for a fresh orientation (see ``Publisher/get(_:from:id:)``).
        case freshStateWanted(Bool)
        case reconfigure(PipelineSettings)
        case sourceEnded
    }

    /// Where the service's controls wait until it runs. Made before the service, so that the publisher, which
    /// the service needs, can be handed a way to tell it about subscribers when it is built.
    public struct Inbox: Sendable {
        fileprivate let stream: AsyncStream<Control>
        fileprivate let continuation: AsyncStream<Control>.Continuation

        public init() {
            (stream, continuation) = AsyncStream.makeStream(of: Control.self)
        }

        /// Safe from any thread.
        public func send(_ control: Control) {
            continuation.yield(control)
        }
    }

    private let source: any SampleSource
    private let eventLoop: EventLoop
    private let publisher: NIOLoopBound<Publisher>
    private let controls: AsyncStream<Control>
    private let controlInput: AsyncStream<Control>.Continuation
    private let initialSettings: PipelineSettings
    private let exitAtEnd: Bool
    private let logger: Logger

    public init(
        source: any SampleSource, eventLoop: EventLoop, publisher: NIOLoopBound<Publisher>, settings: PipelineSettings,
        exitAtEnd: Bool, logger: Logger, inbox: Inbox = Inbox()
    ) {
        self.source = source
        self.eventLoop = eventLoop
        self.publisher = publisher
        self.initialSettings = settings
        self.exitAtEnd = exitAtEnd
        self.logger = logger
        (controls, controlInput) = (inbox.stream, inbox.continuation)
    }

    /// Tells the service about subscriber counts and reloads. Safe from any thread.
    public func send(_ control: Control) {
        controlInput.yield(control)
    }

    public func run() async {
        var settings = initialSettings
        var subscribers = 0
        var claims = 0
        var freshStateWanted = false
        var capture: CaptureHandle?
        var ended = false

        func reconcile() async {
            // A D-Bus claim or a waiting `get` counts as a subscriber (a replay that waits for N subscribers
            // waits for sockets only).
            let wanted = (subscribers >= settings.subscribersToRun || claims > 0 || freshStateWanted) && !ended
            if wanted, capture == nil {
                let why = freshStateWanted && subscribers == 0 && claims == 0
                    ? "for a get" : "\(subscribers) subscriber(s), \(claims) D-Bus claim(s)"
                logger.info("opening the sensor (\(why))")
                capture = startCapture(settings)
            } else if !wanted, let running = capture {
                await stop(running)
                capture = nil
                if !ended { logger.info("closed the sensor: no subscribers, no D-Bus claims, no get waiting") }
            }
        }

        await reconcile()
        for await control in controls.cancelOnGracefulShutdown() {
            switch control {
            case .subscribers(let count):
                subscribers = count
            case .claims(let count):
                claims = count
            case .freshStateWanted(let wanted):
                freshStateWanted = wanted
            case .reconfigure(let next):
                guard next != settings else { continue }
                settings = next
                if let running = capture {
                    await stop(running)
                    capture = nil
                }
            case .sourceEnded:
                ended = true
                let publisher = self.publisher
                eventLoop.execute { publisher.value.captureEnded() }
                if exitAtEnd {
                    logger.info("the replay ended: stopping (--exit-at-end)")
                    return
                }
                logger.info("the replay ended: serving the last state until stopped")
            }
            await reconcile()
        }
        await capture?.stop()
    }

    /// Stops a capture; once its thread has ended, the publisher learns that the state is no longer fresh.
    /// Awaited: until the publisher knows, a `get` would still be answered as fresh without opening the sensor,
    /// and "closed the sensor" must not be logged before that is over.
    private func stop(_ capture: CaptureHandle) async {
        await capture.stop()
        let publisher = self.publisher
        try? await eventLoop.submit { publisher.value.sensorClosed() }.get()
    }

    private func startCapture(_ settings: PipelineSettings) -> CaptureHandle {
        let input = self.controlInput
        let pipeline = SensorPipeline(
            settings: settings, eventLoop: eventLoop, publisher: publisher, logger: logger,
            sourceEnded: { input.yield(.sourceEnded) })
        return source.start { pipeline.handle($0) }
    }
}
