import Logging
import NIOCore
import NIOEmbedded
import OrientCore
import OrientProtocol
import OrientSampleSource
@testable import OrientServer

/// A publisher fed through the real sensor pipeline on an embedded event loop, with a convertible's two sensors
/// posed by hand: the display's reading and the hinge angle, from which the base's reading follows.
final class ConvertibleBench {
    static let g = 9.80665
    /// Display readings at rest (docs/orientations.md's table).
    static let portrait = Vector3(0, -g, 0)
    /// Right edge up: device landscape-left, interface landscape-right. Gravity runs along the hinge, so the
    /// angle cannot be read: posture and tablet mode stay as they were.
    static let landscapeLeft = Vector3(-g, 0, 0)
    /// Left edge up: device landscape-right, interface landscape-left.
    static let landscapeRight = Vector3(g, 0, 0)

    let loop = EmbeddedEventLoop()
    let clock = ManualClock()
    let publisher: Publisher
    /// What the publisher asked of the sensor for `get` requests that wait.
    var wanted: [Bool] { log.wanted }
    /// Every demand the publisher told, in order.
    var demands: [SocketDemand] { log.demands }
    /// Every decision on the tablet-mode switch the publisher told, in order.
    var decisions: [TabletModeSwitchDecision] { log.decisions }
    private let log = WantedLog()
    private let pipeline: SensorPipeline
    private(set) var time = 0.0

    init(publisher settings: Publisher.Settings = .init(), pipeline rotateIn: RotateIn? = nil) {
        let log = self.log
        publisher = Publisher(
            settings: settings, persistent: PersistentState(), version: "test",
            dependencies: .init(
                clock: clock,
                demandChanged: { demand in
                    if demand.freshStateWanted != (log.demands.last?.freshStateWanted ?? false) {
                        log.wanted.append(demand.freshStateWanted)
                    }
                    log.demands.append(demand)
                },
                tabletModeSwitchDecided: { log.decisions.append($0) }))
        var engine = EngineConfiguration()
        engine.rotateIn = rotateIn
        pipeline = SensorPipeline(
            engine: engine,
            eventLoop: loop, publisher: NIOLoopBound(publisher, eventLoop: loop), logger: Logger(label: "test"),
            sourceEnded: {})
    }

    /// Hands one event to the pipeline and runs what it sent to the event loop.
    func send(_ event: SensorEvent) {
        pipeline.handle(event)
        loop.run()
    }

    /// A subscriber with `settings`, recording what it is sent.
    func subscriber(_ settings: SubscriptionSettings = SubscriptionSettings()) -> RecordingSink {
        let sink = RecordingSink()
        _ = publisher.subscribe(sink, settings: settings, id: nil)
        return sink
    }

    func open(
        base: MountMatrix? = .identity, hinge: HingeSensorDescription? = nil, mode: SensorDescription.CaptureMode = .replay
    ) {
        send(.opened(SensorDescription(id: "t", name: "t", mode: mode, baseMountMatrix: base, hinge: hinge)))
    }

    /// Holds a pose for `seconds` at 10 Hz (a kernel hinge sensor's rate), the kernel reading `angle` and no base.
    func hold(_ display: Vector3, kernel angle: KernelHingeAngle, seconds: Double = 1) {
        for _ in 0..<Int(seconds * 10) {
            time += 0.1
            send(.sample(AccelSample(time: time, acceleration: display, hinge: angle)))
        }
    }

    /// Holds a pose for `seconds` at 50 Hz. `hinge`: the angle the base reading is built for; `nil` sends the
    /// display's reading alone.
    func hold(_ display: Vector3, hinge: Double?, seconds: Double = 1) {
        for _ in 0..<Int(seconds * 50) { sample(display, hinge: hinge) }
    }

    /// Opens or folds the hinge steadily from one angle to another, as a hand does (a jump of more than 180°
    /// would be read the other way round), then holds it there for `seconds`.
    func fold(_ display: Vector3, from start: Double, to end: Double, seconds: Double = 1) {
        let steps = 25
        for step in 1...steps { sample(display, hinge: start + (end - start) * Double(step) / Double(steps)) }
        hold(display, hinge: end, seconds: seconds)
    }

    private final class WantedLog {
        var wanted: [Bool] = []
        var demands: [SocketDemand] = []
        var decisions: [TabletModeSwitchDecision] = []
    }

    private func sample(_ display: Vector3, hinge: Double?) {
        time += 0.02
        let base = hinge.map { HingeGeometry.base(fromDisplay: display, hingeAngle: $0) }
        send(.sample(AccelSample(time: time, acceleration: display, base: base)))
    }
}
