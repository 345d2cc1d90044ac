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
    public let baseMountMatrix: MountMatrix
    /// Display readings in `acceleration`, base readings in `base`, each in its sensor's frame.
    public let samples: [AccelSample]
    public let expectations: [FoldExpectation]

    /// Samples a timeline at `rate` Hz; each sensor adds its own noise, bias, tremor and mounting.
    public static func make(
        _ name: String, rate: Double, start: FoldPose, pieces: [FoldPiece], display: SensorModel = SensorModel(),
        base: SensorModel = SensorModel(), seed: UInt64
    ) -> FoldScenario {
        var random = SeededRandom(seed: seed)
        let timeline = Timeline<FoldPiece>(start: start, pieces: pieces)
        var samples: [AccelSample] = []
        samples.reserveCapacity(Int(timeline.duration * rate) + 1)
        SampleTimes.forEach(rate: rate, duration: timeline.duration, jitter: display.jitter, random: &random) { t, random in
            let (force, hinge) = timeline.state(at: t)
            let baseReading = HingeGeometry.base(fromDisplay: force, hingeAngle: hinge)
            samples.append(AccelSample(
                time: t, acceleration: display.measure(force, random: &random),
                base: base.measure(baseReading, random: &random)))
        }
        return FoldScenario(
            name: name, rate: rate, mountMatrix: display.published ?? display.mounting,
            baseMountMatrix: base.published ?? base.mounting, samples: samples, expectations: timeline.expectations)
    }
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
    /// it: on from `tabletModeOnAngle`, off again at `tabletModeOffAngle`.
    var expectations: [FoldExpectation] {
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

    /// The specific force in the display frame (gravity plus the hand's own acceleration) and the hinge angle.
    func state(at t: Double) -> (Vector3, Double) {
        let (current, local) = current(at: t)
        switch current.piece {
        case .hold(let pose, _, let wobble), .book(let pose, _, let wobble):
            let display = Pose(
                angle: pose.display.angle + wobble.value(at: t), tilt: pose.display.tilt + wobble.value(at: t + 7.3))
            return (display.reading(), pose.hinge)
        case .typing(let pose, _, let onLap):
            let sway = onLap ? 3.0 : 0.3
            let display = Pose(
                angle: pose.display.angle + sway * Double.sin(2 * .pi * 0.4 * t),
                tilt: pose.display.tilt + sway * Double.sin(2 * .pi * 0.7 * t + 1))
            let gravity = display.reading()
            let jolt = Self.keyJolt(at: t, strength: onLap ? 3.5 : 0.8)
            // The lid shakes about the hinge with each key, a degree or so.
            let flex = 1.0 * Double.sin(2 * .pi * 6 * t)
            return (gravity + gravity * (jolt / 9.80665), pose.hinge + flex)
        case .move(let to, let seconds):
            let u = local / seconds
            let pose = Self.interpolate(current.from, to, Hand.eased(u))
            let push = Hand.push(u)
            return (pose.display.reading() + Vector3(0.4 * push, 0.3 * push, push), pose.hinge)
        case .walk(let pose, _):
            let gait = Gait(at: t)
            let gravity = gait.rocking(pose.display).reading()
            return (gravity + gravity * (gait.vertical / 9.80665) + Vector3(gait.sway, 0, 0),
                    pose.hinge + 0.5 * Double.sin(gait.step))
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
