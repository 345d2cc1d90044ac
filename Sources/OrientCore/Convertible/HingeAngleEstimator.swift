/// Reads the hinge angle θ from the display and base sensors, both in their device frames.
///
/// Per pair of readings: each is low-pass filtered; the raw magnitudes gate motion exactly as the orientation
/// classifier does (a reading far from 1 g or in free fall makes θ unknown until `motionHoldoff` after it); θ is
/// unknown while gravity runs within `hingeVerticalAngle` of the hinge. Otherwise θ comes from the filtered
/// vectors (``HingeGeometry/angle(display:base:)``), and near 0°/360°, where closed and folded flat read the
/// same, from continuity: the lid switch when it says closed, else the last known angle when it was within 90° of
/// one end, else which way the screen faces: up means folded back, down means shut.
public struct HingeAngleEstimator: Sendable {
    public let settings: PostureSettings
    public let motionGate: ClassifierSettings

    /// θ in degrees in [0, 360] after the last reading, or `nil` while it cannot be read.
    public private(set) var angle: Double?
    /// The filtered display reading, in the display's device frame.
    public private(set) var filteredDisplay: Vector3 = .zero
    /// The filtered base reading, in the base's device frame.
    public private(set) var filteredBase: Vector3 = .zero
    /// Whether the lid switch (SW_LID) reports the lid shut; `nil` when there is no switch.
    public var lidClosed: Bool?

    private var lastTime: Double?
    private var lastMotion: Double = -.infinity
    private var hingeVertical = false
    /// The last angle read, kept through spells of unknown for continuity at the wrap.
    private var lastKnown: Double?

    public init(settings: PostureSettings = PostureSettings(), motionGate: ClassifierSettings = ClassifierSettings()) {
        self.settings = settings
        self.motionGate = motionGate
    }

    /// Forgets everything, as when a sensor goes away.
    public mutating func reset() {
        angle = nil
        filteredDisplay = .zero
        filteredBase = .zero
        lastTime = nil
        lastMotion = -.infinity
        hingeVertical = false
        lastKnown = nil
    }

    /// Feeds one pair of readings taken at `time`.
    /// - Returns: θ after this pair, or `nil` while it cannot be read.
    /// - Throws: ``ClassifierError`` for a pair whose time does not increase or that is not finite; it is ignored.
    @discardableResult
    public mutating func feed(time: Double, display: Vector3, base: Vector3) throws(ClassifierError) -> Double? {
        guard time.isFinite, display.isFinite else { throw .nonFinite(AccelSample(time: time, acceleration: display)) }
        guard base.isFinite else { throw .nonFinite(AccelSample(time: time, acceleration: base)) }
        if let lastTime, time <= lastTime { throw .nonIncreasingTime(previous: lastTime, got: time) }

        smooth(display: display, base: base, at: time)
        if isMotion(display) || isMotion(base) { lastMotion = time }
        angle = read(at: time)
        if let angle { lastKnown = angle }
        return angle
    }

    private mutating func smooth(display: Vector3, base: Vector3, at t: Double) {
        defer { lastTime = t }
        guard let lastTime, t - lastTime <= motionGate.maxSampleGap else {
            filteredDisplay = display
            filteredBase = base
            return
        }
        let dt = t - lastTime
        let alpha = dt / (settings.filterTimeConstant + dt)
        filteredDisplay = filteredDisplay + (display - filteredDisplay) * alpha
        filteredBase = filteredBase + (base - filteredBase) * alpha
    }

    private func isMotion(_ a: Vector3) -> Bool {
        let magnitude = a.length
        return magnitude < motionGate.freeFallMagnitude
            || abs(magnitude - motionGate.gravity) > motionGate.accelerationTolerance
    }

    private mutating func read(at t: Double) -> Double? {
        let elevation = min(
            HingeGeometry.elevationFromHinge(filteredDisplay), HingeGeometry.elevationFromHinge(filteredBase))
        hingeVertical = elevation < (hingeVertical ? settings.hingeReadableAngle : settings.hingeVerticalAngle)
        guard !hingeVertical, t - lastMotion >= motionGate.motionHoldoff else { return nil }
        return unwrapped(HingeGeometry.angle(display: filteredDisplay, base: filteredBase))
    }

    /// Places a raw angle near the wrap on the closed side (towards 0°) or the folded side (towards 360°).
    private func unwrapped(_ raw: Double) -> Double {
        let zone = settings.wrapZone
        guard raw < zone || raw > 360 - zone else { return raw }
        let folded: Bool =
            if lidClosed == true { false }
            else if let lastKnown, lastKnown <= 90 { false }
            else if let lastKnown, lastKnown >= 270 { true }
            // Never seen, or last seen far from both ends (the fold or the closing happened while the angle could
            // not be read, e.g. in a quick motion): a tablet is held screen up, a shut lid lies screen down. At
            // rest the display reads gravity, so z < 0 means the screen faces up.
            else { filteredDisplay.z < 0 }
        if folded { return raw < zone ? 360 : raw }
        return raw > 360 - zone ? 0 : raw
    }
}
