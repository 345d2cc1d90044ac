/// Turns accelerometer samples into committed device orientations.
///
/// A deterministic state machine: time comes from the samples, never from a clock, so a replayed trace gives
/// the same result every time. Samples are in the device frame (mount matrix applied), in m/s².
///
/// Per sample:
/// 1. A first-order low-pass filter smooths the vector (restarted after a gap longer than `maxSampleGap`).
/// 2. The raw magnitude gates motion: far from 1 g (shaking, a jolt) or near 0 (free fall) holds every commit
///    back until `motionHoldoff` after the last such sample.
/// 3. The filtered vector proposes an orientation: face up/down when the screen is within `flatEnterAngle` of
///    horizontal (kept until it is beyond `flatExitAngle`); otherwise the upright orientation whose direction is
///    nearest to gravity in the screen plane, but the current upright orientation is kept until gravity has
///    turned 45 + gap/2 degrees away from it, so a device hovering at a diagonal does not flap.
/// 4. A proposal different from the committed orientation is committed once it has been proposed continuously
///    for `settleTime`.
public struct OrientationClassifier: Sendable {
    public let settings: ClassifierSettings
    private let thresholds: ClassifierThresholds

    /// The committed orientation: `unknown` until the first settled one.
    public private(set) var orientation: DeviceOrientation = .unknown
    /// The smoothed acceleration, for diagnostics.
    public private(set) var filtered: Vector3 = .zero

    private var lastTime: Double?
    private var proposal: DeviceOrientation = .unknown
    private var proposalSince: Double = 0
    private var lastMotion: Double = -.infinity

    /// - Throws: ``ClassifierSettingsError`` when the settings are inconsistent.
    public init(settings: ClassifierSettings = ClassifierSettings()) throws(ClassifierSettingsError) {
        try settings.validate()
        self.settings = settings
        self.thresholds = ClassifierThresholds(settings)
    }

    /// Whether the motion gate holds commits back at the time of the last sample: a reading far from 1 g or in
    /// free fall came less than `motionHoldoff` before it. Reading it changes nothing; plots and diagnostics
    /// use it to show why a turn was committed late.
    public var isMotionGated: Bool {
        guard let lastTime else { return false }
        return lastTime - lastMotion < settings.motionHoldoff
    }

    /// What a lone reading shows, with nothing before it: face up or down when the screen lies within
    /// `flatEnterAngle` of horizontal, else the nearest upright orientation; unknown when it is too weak to point
    /// anywhere (free fall, or a zero reading). No filter, motion gate, hysteresis or settling, and no state
    /// changed: iio-sensor-proxy decides its orientation from a claim's first reading, and its clients read the
    /// property straight after the claim.
    public func firstGuess(_ a: Vector3) -> DeviceOrientation {
        let total = a.lengthSquared
        guard a.isFinite, total >= thresholds.freeFallMagnitudeSquared, total > 0 else { return .unknown }
        if a.z * a.z >= thresholds.flatEnterZFraction * total { return a.z < 0 ? .faceUp : .faceDown }
        guard a.x != 0 || a.y != 0 else { return .unknown }
        return Self.nearestUpright(to: a)
    }

    /// Forgets everything, as when the sensor goes away: the orientation is `unknown` again.
    public mutating func reset() {
        orientation = .unknown
        filtered = .zero
        lastTime = nil
        proposal = .unknown
        lastMotion = -.infinity
    }

    /// Feeds one sample.
    /// - Returns: the newly committed orientation when this sample commits a change, else `nil`.
    /// - Throws: ``ClassifierError`` for a sample whose time does not increase or that is not finite; such a
    ///   sample is ignored and the state stays as it was.
    public mutating func feed(_ sample: AccelSample) throws(ClassifierError) -> DeviceOrientation? {
        let t = sample.time
        let a = sample.acceleration
        guard t.isFinite, a.isFinite else { throw .nonFinite(sample) }
        if let lastTime, t <= lastTime { throw .nonIncreasingTime(previous: lastTime, got: t) }

        smooth(a, at: t)
        let magnitudeSquared = a.lengthSquared
        if magnitudeSquared < thresholds.minimumMagnitudeSquared
            || magnitudeSquared > thresholds.maximumMagnitudeSquared
        {
            lastMotion = t
        }

        let proposed = propose()
        if proposed != proposal {
            proposal = proposed
            proposalSince = t
        }
        guard proposal != .unknown, proposal != orientation,
            t - proposalSince >= settings.settleTime,
            t - lastMotion >= settings.motionHoldoff
        else { return nil }
        orientation = proposal
        return proposal
    }

    private mutating func smooth(_ a: Vector3, at t: Double) {
        defer { lastTime = t }
        guard let lastTime, t - lastTime <= settings.maxSampleGap else {
            // First sample, or after a long gap: start afresh from this reading.
            filtered = a
            proposal = .unknown
            return
        }
        let dt = t - lastTime
        let alpha = dt / (settings.filterTimeConstant + dt)
        filtered = filtered + (a - filtered) * alpha
    }

    /// The orientation the filtered vector points to, or `unknown` when it points nowhere clear.
    private func propose() -> DeviceOrientation {
        let f = filtered
        let total = f.lengthSquared
        guard total >= thresholds.freeFallMagnitudeSquared, total > 0 else { return .unknown }

        let zz = f.z * f.z
        // At rest the reading points along gravity: face up reads (0, 0, -g).
        let flat: DeviceOrientation = f.z < 0 ? .faceUp : .faceDown
        if zz >= thresholds.flatEnterZFraction * total { return flat }
        if orientation == flat, zz >= thresholds.flatExitZFraction * total { return flat }

        let inPlane = (f.x * f.x + f.y * f.y).squareRoot()
        guard inPlane > 0 else { return .unknown }
        if orientation.isUpright, Self.component(of: f, along: orientation) >= thresholds.leaveCosine * inPlane {
            return orientation
        }
        return Self.nearestUpright(to: f)
    }

    /// Gravity's in-plane component along the direction in which an upright orientation reads it.
    private static func component(of f: Vector3, along orientation: DeviceOrientation) -> Double {
        switch orientation {
        case .portrait: -f.y
        case .portraitUpsideDown: f.y
        case .landscapeRight: f.x  // left edge up: gravity along +x
        case .landscapeLeft: -f.x
        case .unknown, .faceUp, .faceDown: 0
        }
    }

    private static func nearestUpright(to f: Vector3) -> DeviceOrientation {
        if abs(f.y) >= abs(f.x) { return f.y <= 0 ? .portrait : .portraitUpsideDown }
        return f.x > 0 ? .landscapeRight : .landscapeLeft
    }
}
