import OrientCore
import RealModule

/// What the classifier must do during one piece of a scenario.
public struct Expectation: Sendable {
    public enum Kind: Sendable, Equatable {
        /// The orientation must be this one by the end of the piece, and nothing else may be committed in it.
        case hold(DeviceOrientation)
        /// A deliberate rotation to `target`; commits of `target` (or of `transit`, passed on the way) are allowed,
        /// and the latency from `end` (the hand at rest) is measured.
        case rotation(target: DeviceOrientation, transit: Set<DeviceOrientation>)
        /// Any one of these; at most one commit in the piece.
        case hover(Set<DeviceOrientation>)
        /// No commit at all.
        case quiet
    }

    public let start: Double
    public let end: Double
    public let kind: Kind
}

/// A synthesised recording: samples in the sensor's frame, and what a good classifier makes of them.
public struct Scenario: Sendable {
    public let name: String
    public let rate: Double
    /// The matrix a trace of this scenario would carry in its metadata (possibly mirrored, as hwdb entries are).
    public let mountMatrix: MountMatrix
    public let samples: [AccelSample]
    public let expectations: [Expectation]
}

/// How the sensor and the hand add error to the ideal readings.
public struct SensorModel: Sendable {
    /// Standard deviation of white noise on each axis, m/s².
    public var noise: Double = 0.08
    /// A constant offset on each axis, m/s² (a miscalibrated sensor).
    public var bias = Vector3(0.1, -0.15, 0.2)
    /// Hand tremor: small accelerations at 8 to 12 Hz, m/s².
    public var tremor: Double = 0.15
    /// Timestamp jitter as a fraction of the sample period (kept below 0.5, so time always increases).
    public var jitter: Double = 0.3
    /// The true mounting: sensor readings are its transpose applied to device-frame readings.
    public var mounting: MountMatrix = .identity
    /// The matrix published for this sensor (by default the true one; a hwdb-style mirrored one to test repair).
    public var published: MountMatrix?

    public init() {}
}

extension SensorModel {
    /// A device-frame reading as this sensor reports it: into its frame (the mounting is a rotation, so its
    /// inverse is its transpose), plus bias and noise. Tremor is the hand's, added before.
    func measure(_ device: Vector3, random: inout SeededRandom) -> Vector3 {
        let m = mounting.rows
        let raw = m.x * device.x + m.y * device.y + m.z * device.z
        return raw + bias + Vector3(
            random.gaussian(sigma: noise), random.gaussian(sigma: noise), random.gaussian(sigma: noise))
    }
}

extension Scenario {
    /// Samples a timeline at `rate` Hz.
    public static func make(
        _ name: String,
        rate: Double,
        start: Pose,
        pieces: [Piece],
        sensor: SensorModel = SensorModel(),
        seed: UInt64
    ) -> Scenario {
        var random = SeededRandom(seed: seed)
        let timeline = Timeline<Piece>(start: start, pieces: pieces)
        let tremorPhase = (random.uniform(0...6), random.uniform(0...6), random.uniform(0...6))
        let tremorFrequency = random.uniform(8...12)
        var samples: [AccelSample] = []
        samples.reserveCapacity(Int(timeline.duration * rate) + 1)
        SampleTimes.forEach(rate: rate, duration: timeline.duration, jitter: sensor.jitter, random: &random) { t, random in
            let w = 2 * .pi * tremorFrequency * t
            let device = timeline.reading(at: t, random: &random) + Vector3(
                sensor.tremor * Double.sin(w + tremorPhase.0),
                sensor.tremor * Double.sin(w + tremorPhase.1),
                sensor.tremor * Double.sin(w + tremorPhase.2)
            )
            samples.append(AccelSample(time: t, acceleration: sensor.measure(device, random: &random)))
        }
        return Scenario(
            name: name, rate: rate, mountMatrix: sensor.published ?? sensor.mounting,
            samples: samples, expectations: timeline.expectations
        )
    }
}

extension Piece: TimelinePiece {
    func pose(after start: Pose) -> Pose {
        switch self {
        case .hold(let p, _, _), .walk(let p, _), .rotate(let p, _), .hover(let p, _, _, _): p
        case .shake: start
        case .drop(_, let landing): landing
        }
    }
}

extension Timeline where Stretch == Piece {
    /// What the classifier must do in each piece.
    var expectations: [Expectation] {
        placed.map { placed in
            let kind: Expectation.Kind
            switch placed.piece {
            case .hold(let p, _, _), .walk(let p, _): kind = .hold(p.idealOrientation)
            case .rotate(let p, _): kind = .rotation(target: p.idealOrientation, transit: Self.transit(from: placed.from, to: p))
            case .hover(_, _, _, let allowed): kind = .hover(allowed)
            case .shake, .drop: kind = .quiet
            }
            return Expectation(start: placed.start, end: placed.end, kind: kind)
        }
    }

    /// The orientations a turn passes through on its way (for a half turn, the one in between).
    private static func transit(from a: Pose, to b: Pose) -> Set<DeviceOrientation> {
        var passed: Set<DeviceOrientation> = []
        for step in 1..<20 {
            passed.insert(Pose.interpolate(a, b, Double(step) / 20).idealOrientation)
        }
        passed.remove(b.idealOrientation)
        passed.remove(a.idealOrientation)
        return passed
    }

    /// The ideal reading (gravity plus the hand's own acceleration) at time `t`, in the device frame.
    func reading(at t: Double, random: inout SeededRandom) -> Vector3 {
        let (current, local) = current(at: t)
        switch current.piece {
        case .hold(let pose, _, let wobble):
            return Pose(angle: pose.angle + wobble.value(at: t), tilt: pose.tilt + wobble.value(at: t + 7.3)).reading()
        case .hover(let pose, _, let wobble, _):
            return Pose(angle: pose.angle + wobble.value(at: t), tilt: pose.tilt + wobble.value(at: t + 3.1)).reading()
        case .rotate(let to, let seconds):
            let u = local / seconds
            let pose = Pose.interpolate(current.from, to, Hand.eased(u))
            let push = Hand.push(u)
            return pose.reading() + Vector3(push, 0.5 * push, 0)
        case .shake(_, let amplitude):
            let w = 2 * .pi * 5 * t
            return current.from.reading()
                + Vector3(amplitude * Double.sin(w), 0.7 * amplitude * Double.sin(w + 1), 0.5 * amplitude * Double.sin(w + 2))
        case .walk(let pose, _):
            let gait = Gait(at: t)
            let down = pose.reading() * (1 / 9.80665)
            return gait.rocking(pose).reading() + down * gait.vertical + Vector3(gait.sway, 0, 0)
        case .drop(let fall, let landing):
            if local < fall { return Vector3(random.gaussian(sigma: 0.2), random.gaussian(sigma: 0.2), random.gaussian(sigma: 0.2)) }
            // The landing: a jolt of several g, then the pose it lands in.
            if local < fall + 0.02 { return landing.reading() * 4 }
            return landing.reading()
        }
    }
}
