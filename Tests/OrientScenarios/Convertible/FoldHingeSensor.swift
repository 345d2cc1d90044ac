import OrientCore

/// A kernel hinge sensor read in place of a convertible's base accelerometer: a machine with the display's
/// accelerometer and a hinge sensor, and no base accelerometer.
public enum FoldHingeSensor: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Intel's `hinge` (hid-sensor-custom-intel-hinge): the true θ in whole degrees, in any attitude.
    case intel
    /// ChromeOS's `cros-ec-lid-angle`: θ in whole degrees too, but unknown (the EC's 500) while the hinge axis is
    /// within ``crosVerticalAngle`` of vertical, where the EC's own two accelerometers cannot tell, and for short
    /// spells in which it gives no angle.
    case crosEC = "cros-ec-lid-angle"

    public var description: String { rawValue }

    /// Reads a second; each read is held until the next, as a sample carries the last angle read.
    static let readRate = 10.0
    /// The EC cannot tell θ while gravity is this close to the hinge axis: the engine's own `hinge-vertical-angle`.
    static let crosVerticalAngle = PostureSettings().hingeVerticalAngle
    /// One spell without an angle, this long, every ``spellPeriod`` seconds from a phase the seed draws.
    static let spellSeconds = 0.3
    static let spellPeriod = 4.0

    /// Whether it reads θ with the hinge axis vertical, where two accelerometers cannot: the posture may then
    /// follow the hinge while the device is held as a book.
    public var readsVerticalHinge: Bool { self == .intel }

    /// What a read at `time` gives with the hinge at `hinge` degrees and `gravity` in the display's device frame.
    func read(hinge: Double, gravity: Vector3, at time: Double, spellPhase: Double) -> KernelHingeAngle {
        // Clamped as the hinge is: the walk's sway about a folded tablet's 360° is the model's, not the lid's.
        let degrees = KernelHingeAngle.degrees(min(360, max(0, hinge.rounded())))
        switch self {
        case .intel:
            return degrees
        case .crosEC:
            if HingeGeometry.elevationFromHinge(gravity) < Self.crosVerticalAngle { return .unknown }
            let intoPeriod = (time - spellPhase).truncatingRemainder(dividingBy: Self.spellPeriod)
            let inSpell = time >= spellPhase && intoPeriod < Self.spellSeconds
            return inSpell ? .unknown : degrees
        }
    }
}

/// A kernel hinge sensor's reads along a timeline: one at each multiple of 1 / ``FoldHingeSensor/readRate``
/// seconds, the last one held for the samples between.
struct KernelHingeReads {
    let sensor: FoldHingeSensor
    /// The true hinge angle and gravity in the display's device frame at a time.
    let truth: (Double) -> (hinge: Double, gravity: Vector3)
    let spellPhase: Double
    private var last: (index: Double, angle: KernelHingeAngle)?

    init(sensor: FoldHingeSensor, seed: UInt64, truth: @escaping (Double) -> (hinge: Double, gravity: Vector3)) {
        self.sensor = sensor
        self.truth = truth
        // Its own sequence: the scenario's samples are drawn exactly as without a hinge sensor.
        var random = SeededRandom(seed: seed ^ 0x6869_6e67_65)
        spellPhase = random.uniform(0...FoldHingeSensor.spellPeriod)
    }

    /// The angle the last read before `time` gave.
    mutating func angle(at time: Double) -> KernelHingeAngle {
        let index = (time * FoldHingeSensor.readRate).rounded(.down)
        if let last, last.index == index { return last.angle }
        let readTime = index / FoldHingeSensor.readRate
        let now = truth(readTime)
        let angle = sensor.read(hinge: now.hinge, gravity: now.gravity, at: readTime, spellPhase: spellPhase)
        last = (index, angle)
        return angle
    }
}
