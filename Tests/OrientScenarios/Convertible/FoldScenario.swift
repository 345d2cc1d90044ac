import OrientCore
import RealModule

/// What the posture tracker must do during one piece of a convertible scenario.
public struct FoldExpectation: Sendable {
    public enum Kind: Sendable, Equatable {
        /// By the end: this posture and tablet mode (and, when given, this interface orientation); no other
        /// posture and no tablet-mode change within the piece.
        case hold(Posture, tabletMode: Bool, interface: InterfaceOrientation?)
        /// A move: postures passed on the way may be committed, and tablet mode may change to `tabletMode`.
        case move(passing: Set<Posture>, tabletMode: Bool)
        /// Carried, typed on or held as a book: no change at all.
        case keep
        /// Held as a book with a kernel hinge sensor, which reads θ whatever the attitude: the posture may follow
        /// it through these, and tablet mode is `tabletMode` (as θ leaves it); nothing is measured.
        case follow(passing: Set<Posture>, tabletMode: Bool)
    }

    public let start: Double
    public let end: Double
    public let kind: Kind
    /// The true hinge angle while the piece lasts, for pieces where it stays put.
    public let hinge: Double?
}

/// A synthesised recording of a convertible: both sensors' samples and what a good tracker makes of them.
public struct FoldScenario: Sendable {
    public let name: String
    public let rate: Double
    public let mountMatrix: MountMatrix
    /// Identity where a kernel hinge sensor stands in for the base sensor, as the daemon's engine has it.
    public let baseMountMatrix: MountMatrix
    /// `nil` for two accelerometers; else the kernel hinge sensor read beside the display's, with no base sensor.
    public let hingeSensor: FoldHingeSensor?
    /// Display readings in `acceleration`, each in its sensor's frame, with base readings in `base` or, with a
    /// hinge sensor, its angle in `hinge`.
    public let samples: [AccelSample]
    public let expectations: [FoldExpectation]

    /// Samples a timeline at `rate` Hz; each sensor adds its own noise, bias, tremor and mounting. With a
    /// `hingeSensor` the display's readings are those it has without one, and the base's give way to the angle.
    public static func make(
        _ name: String, rate: Double, start: FoldPose, pieces: [FoldPiece], display: SensorModel = SensorModel(),
        base: SensorModel = SensorModel(), hingeSensor: FoldHingeSensor? = nil, seed: UInt64
    ) -> FoldScenario {
        var random = SeededRandom(seed: seed)
        let timeline = Timeline<FoldPiece>(start: start, pieces: pieces)
        var kernel = hingeSensor.map { sensor in
            KernelHingeReads(sensor: sensor, seed: seed) { t in
                let now = timeline.state(at: t)
                return (now.hinge, now.gravity)
            }
        }
        var samples: [AccelSample] = []
        samples.reserveCapacity(Int(timeline.duration * rate) + 1)
        SampleTimes.forEach(rate: rate, duration: timeline.duration, jitter: display.jitter, random: &random) { t, random in
            let now = timeline.state(at: t)
            let baseReading = HingeGeometry.base(fromDisplay: now.force, hingeAngle: now.hinge)
            // The base is measured even where it is not kept, so that the display's noise is drawn alike.
            var sample = AccelSample(
                time: t, acceleration: display.measure(now.force, random: &random),
                base: base.measure(baseReading, random: &random))
            if kernel != nil {
                sample.base = nil
                sample.hinge = kernel?.angle(at: t)
            }
            samples.append(sample)
        }
        let expectations = timeline.expectations(readsVerticalHinge: hingeSensor?.readsVerticalHinge ?? false)
        return FoldScenario(
            name: name, rate: rate, mountMatrix: display.published ?? display.mounting,
            baseMountMatrix: hingeSensor == nil ? base.published ?? base.mounting : .identity, hingeSensor: hingeSensor,
            samples: samples, expectations: expectations)
    }
}

/// One instant of a convertible scenario's timeline, in the display's device frame.
struct FoldInstant {
    /// What the display's accelerometer feels: gravity and the hand's (the keys', the walk's) own acceleration.
    let force: Vector3
    /// Gravity alone: what tells a hinge sensor's EC whether the hinge axis is vertical.
    let gravity: Vector3
    /// The true hinge angle, degrees.
    let hinge: Double
}

extension FoldPiece: TimelinePiece {
    func pose(after start: FoldPose) -> FoldPose {
        switch self {
        case .hold(let p, _, _), .typing(let p, _, _), .walk(let p, _), .book(let p, _, _), .move(let p, _): p
        }
    }
}

extension Timeline where Stretch == FoldPiece {
    /// What the posture tracker must do in each piece. Tablet mode follows the hinge as the core's defaults set
    /// it: on from `tabletModeOnAngle`, off again at `tabletModeOffAngle`. Held as a book, nothing may change
    /// unless `readsVerticalHinge`: a sensor that reads θ then lets the posture follow it.
    func expectations(readsVerticalHinge: Bool) -> [FoldExpectation] {
        let settings = PostureSettings()
        var tabletMode = (placed.first?.from.hinge ?? 0) >= settings.tabletModeOnAngle
        return placed.map { placed in
            switch placed.piece {
            case .hold(let p, _, _):
                let interface = tabletMode ? p.display.idealOrientation.interfaceOrientation : nil
                return FoldExpectation(
                    start: placed.start, end: placed.end,
                    kind: .hold(p.idealPosture, tabletMode: tabletMode, interface: interface), hinge: p.hinge)
            case .typing(let p, _, _):
                return FoldExpectation(start: placed.start, end: placed.end, kind: .keep, hinge: p.hinge)
            case .book(let p, _, _) where readsVerticalHinge:
                if p.hinge >= settings.tabletModeOnAngle { tabletMode = true }
                if p.hinge <= settings.tabletModeOffAngle { tabletMode = false }
                return FoldExpectation(
                    start: placed.start, end: placed.end,
                    kind: .follow(passing: Self.passing(from: placed.from, to: p), tabletMode: tabletMode), hinge: nil)
            case .walk, .book:
                return FoldExpectation(start: placed.start, end: placed.end, kind: .keep, hinge: nil)
            case .move(let p, _):
                if p.hinge >= settings.tabletModeOnAngle { tabletMode = true }
                if p.hinge <= settings.tabletModeOffAngle { tabletMode = false }
                return FoldExpectation(
                    start: placed.start, end: placed.end,
                    kind: .move(passing: Self.passing(from: placed.from, to: p), tabletMode: tabletMode), hinge: nil)
            }
        }
    }

    /// The postures a move passes through, its ends included.
    private static func passing(from a: FoldPose, to b: FoldPose) -> Set<Posture> {
        var passed: Set<Posture> = [a.idealPosture, b.idealPosture]
        for step in 1..<40 {
            passed.insert(interpolate(a, b, Double(step) / 40).idealPosture)
        }
        // Beyond flat, tent and stand differ only by the base's attitude, which a move sweeps through.
        if !passed.isDisjoint(with: [.tent, .stand]) { passed.formUnion([.tent, .stand]) }
        return passed
    }

    static func interpolate(_ a: FoldPose, _ b: FoldPose, _ u: Double) -> FoldPose {
        FoldPose(display: Pose.interpolate(a.display, b.display, u), hinge: a.hinge + (b.hinge - a.hinge) * u)
    }

    /// The specific force in the display frame (gravity plus the hand's own acceleration), gravity alone, and
    /// the hinge angle.
    func state(at t: Double) -> FoldInstant {
        let (current, local) = current(at: t)
        switch current.piece {
        case .hold(let pose, _, let wobble), .book(let pose, _, let wobble):
            let display = Pose(
                angle: pose.display.angle + wobble.value(at: t), tilt: pose.display.tilt + wobble.value(at: t + 7.3))
            let gravity = display.reading()
            return FoldInstant(force: gravity, gravity: gravity, hinge: pose.hinge)
        case .typing(let pose, _, let onLap):
            let sway = onLap ? 3.0 : 0.3
            let display = Pose(
                angle: pose.display.angle + sway * Double.sin(2 * .pi * 0.4 * t),
                tilt: pose.display.tilt + sway * Double.sin(2 * .pi * 0.7 * t + 1))
            let gravity = display.reading()
            let jolt = Self.keyJolt(at: t, strength: onLap ? 3.5 : 0.8)
            // The lid shakes about the hinge with each key, a degree or so.
            let flex = 1.0 * Double.sin(2 * .pi * 6 * t)
            return FoldInstant(force: gravity + gravity * (jolt / 9.80665), gravity: gravity, hinge: pose.hinge + flex)
        case .move(let to, let seconds):
            let u = local / seconds
            let pose = Self.interpolate(current.from, to, Hand.eased(u))
            let push = Hand.push(u)
            let gravity = pose.display.reading()
            return FoldInstant(force: gravity + Vector3(0.4 * push, 0.3 * push, push), gravity: gravity, hinge: pose.hinge)
        case .walk(let pose, _):
            let gait = Gait(at: t)
            let gravity = gait.rocking(pose.display).reading()
            return FoldInstant(
                force: gravity + gravity * (gait.vertical / 9.80665) + Vector3(gait.sway, 0, 0), gravity: gravity,
                hinge: pose.hinge + 0.5 * Double.sin(gait.step))
        }
    }

    /// A key press every 0.2 to 0.3 s: a 30 ms pulse along gravity, of varying strength (m/s²).
    private static func keyJolt(at t: Double, strength: Double) -> Double {
        let period = 0.23
        let k = (t / period).rounded(.down)
        let phase = t - k * period
        guard phase < 0.03 else { return 0 }
        let hash = Double.sin(k * 12.9898) * 43758.5453
        let scale = 0.5 + (hash - hash.rounded(.down))
        return strength * scale * Double.sin(.pi * phase / 0.03)
    }
}
