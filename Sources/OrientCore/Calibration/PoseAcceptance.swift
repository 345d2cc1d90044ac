/// One reading during a calibration: the display sensor's, and a convertible base's taken with it, each in its
/// own sensor frame, in m/s² (after any scale correction the source learned).
public struct CalibrationReading: Sendable, Hashable {
    public var time: Double
    public var display: Vector3
    public var base: Vector3?

    public init(time: Double, display: Vector3, base: Vector3? = nil) {
        self.time = time
        self.display = display
        self.base = base
    }
}

/// A pose as taken: the mean readings over the still window.
public struct PoseMeasurement: Sendable, Hashable {
    public var display: Vector3
    public var base: Vector3?
    public var time: Double
}

/// Why a pose was not taken. Each one has a sentence in the tool that says what to do.
public enum PoseRefusal: Sendable, Equatable {
    /// Within ``PoseAcceptanceSettings/turn``'s lower bound of the previous pose: still (or again) in it.
    case tooCloseToPrevious(degrees: Double)
    /// Beyond the upper bound: turned further than a quarter turn (upside down, say).
    case turnedTooFar(degrees: Double)
    /// The readings vary by `spread` m/s² (the largest distance of a reading from their mean).
    case moving(spread: Double)
    /// A sensor reads `g` times 1 g while still.
    case notOneG(g: Double, base: Bool)
    /// Too few readings to judge (Enter pressed before any came, or while the base sensor has none).
    case noReadings
    /// Still where it was when the readings began: that is where the device happened to lie, not a pose the person
    /// made. Said once, for the first still window.
    case notMoved
}

/// What ``PoseAcceptance`` decided.
public enum PoseDecision: Sendable, Equatable {
    case taken(PoseMeasurement)
    case refused(PoseRefusal)
}

public struct PoseAcceptanceSettings: Sendable, Equatable {
    /// Seconds the readings must stay still before a pose is taken: about a second, and less than the second a
    /// wrong driver scale takes to be learned (OrientSensors' `GravityCalibrator`), so that readings far from 1 g are refused
    /// before they are corrected.
    public var stillSeconds: Double
    /// The largest distance, m/s², of a reading from the window's mean that still counts as still: hand tremor is
    /// a tenth of that, turning the device by 4° about twice.
    public var stillTolerance: Double
    /// Readings a window needs at the least.
    public var minimumReadings: Int
    /// Degrees between this pose's display gravity and the previous pose's: a quarter turn, give or take 30°.
    public var turn: ClosedRange<Double>
    /// How far from 1 g, as a fraction of it, a still reading may be.
    public var gravityTolerance: Double
    /// Seconds of motion without a still window after which the tool says so, and again after as long.
    public var motionNotice: Double
    /// Seconds of readings Enter takes the pose from.
    public var enterWindow: Double
    /// Degrees the device must turn away from where it was when the readings began before a first pose is taken by
    /// stillness. A tap or a nudge turns it by a few degrees; picking it up or standing it up, by far more.
    public var movement: Double

    public init(
        stillSeconds: Double = 0.8, stillTolerance: Double = 0.6, minimumReadings: Int = 8,
        turn: ClosedRange<Double> = 60...120,
        gravityTolerance: Double = 0.15, motionNotice: Double = 4, enterWindow: Double = 0.5, movement: Double = 30
    ) {
        self.stillSeconds = stillSeconds
        self.stillTolerance = stillTolerance
        self.minimumReadings = minimumReadings
        self.turn = turn
        self.gravityTolerance = gravityTolerance
        self.motionNotice = motionNotice
        self.enterWindow = enterWindow
        self.movement = movement
    }
}

/// Decides, reading by reading, when the device is held still in a new pose. Pure: time comes with the readings.
///
/// A still window is judged once: taken, or refused with a reason. It is judged again only after a reading leaves
/// it (the device moved), so holding a pose just taken, or one refused, repeats nothing. Motion that goes on
/// without a still window is said every ``PoseAcceptanceSettings/motionNotice`` seconds.
///
/// With `waitsForMovement`, stillness takes no pose until the device has turned
/// ``PoseAcceptanceSettings/movement`` degrees away from where it was when the readings began: a tablet left
/// lying on the desk while the person reads the first instruction is not pose 1. Enter takes a pose regardless.
public struct PoseAcceptance: Sendable {
    public let settings: PoseAcceptanceSettings
    /// Whether readings must carry a base reading (a convertible being calibrated).
    public let needsBase: Bool
    /// The display gravity of the last pose taken.
    public private(set) var previous: Vector3?
    /// Whether stillness may take a pose yet: false until the device has moved, when waiting for movement.
    public private(set) var hasMoved: Bool
    /// The directions when the readings began (the mean of the first few), while waiting for movement.
    private var origin: CalibrationReading?
    private var saidNotMoved = false
    private var window: [CalibrationReading] = []
    /// The mean of the window last judged, until a reading moves away from it.
    private var judged: CalibrationReading?
    private var lastSaid: Double?

    public init(
        settings: PoseAcceptanceSettings = .init(), needsBase: Bool, waitsForMovement: Bool, previous: Vector3? = nil
    ) {
        self.settings = settings
        self.needsBase = needsBase
        self.previous = previous
        hasMoved = !waitsForMovement
    }

    /// Feeds one reading; returns a decision when a still window is judged, or when motion has gone on too long.
    public mutating func feed(_ reading: CalibrationReading) -> PoseDecision? {
        guard reading.display.isFinite, !needsBase || reading.base?.isFinite == true else { return nil }
        if let last = window.last, reading.time < last.time { window.removeAll() }
        window.append(reading)
        let horizon = reading.time - settings.stillSeconds
        while window.count > settings.minimumReadings, window[1].time <= horizon { window.removeFirst() }
        if lastSaid == nil { lastSaid = reading.time }
        if !hasMoved { noteMovement() }
        if let judged {
            guard spread(of: [reading], around: judged) > settings.stillTolerance else { return nil }
            self.judged = nil
            lastSaid = reading.time
        }
        // 0.95: a window of readings a sampling period apart may span a little less than the period itself.
        guard window.count >= settings.minimumReadings, reading.time - window[0].time >= settings.stillSeconds * 0.95
        else {
            return nil
        }
        let mean = mean(of: window)
        let spread = spread(of: window, around: mean)
        guard spread <= settings.stillTolerance else {
            guard let lastSaid, reading.time - lastSaid >= settings.motionNotice else { return nil }
            self.lastSaid = reading.time
            return .refused(.moving(spread: spread))
        }
        judged = mean
        lastSaid = reading.time
        guard hasMoved else {
            guard !saidNotMoved else { return nil }
            saidNotMoved = true
            return .refused(.notMoved)
        }
        return judge(mean)
    }

    /// Sets ``hasMoved`` once the mean of the latest few readings points ``PoseAcceptanceSettings/movement``
    /// degrees away from the first few: a mean, so that the jolt of a tap does not count. The base counts too: turning
    /// a convertible from a stand to a laptop turns the base over and leaves the display as it was. Readings under
    /// half a g (a sensor's first zeros, or a scale not yet learned) point nowhere and are passed over.
    private mutating func noteMovement() {
        guard window.count >= settings.minimumReadings else { return }
        let recent = mean(of: Array(window.suffix(settings.minimumReadings)))
        let halfG = ClassifierSettings().gravity / 2
        guard recent.display.length >= halfG, (recent.base?.length ?? halfG) >= halfG else { return }
        guard let origin else {
            origin = recent
            return
        }
        var turn = recent.display.degrees(to: origin.display)
        if let base = recent.base, let originBase = origin.base { turn = max(turn, base.degrees(to: originBase)) }
        if turn >= settings.movement { hasMoved = true }
    }

    /// Enter: the pose from the readings of the last ``PoseAcceptanceSettings/enterWindow`` seconds, by the same
    /// rules except that they need not have been still for as long.
    public mutating func takeNow() -> PoseDecision {
        guard let last = window.last else { return .refused(.noReadings) }
        let recent = window.filter { $0.time >= last.time - settings.enterWindow }
        guard recent.count >= 3 else { return .refused(.noReadings) }
        let mean = mean(of: recent)
        let spread = spread(of: recent, around: mean)
        guard spread <= settings.stillTolerance else { return .refused(.moving(spread: spread)) }
        judged = mean
        lastSaid = last.time
        // Enter is the person's word that the device is in the pose, moved or not (a convertible standing open).
        hasMoved = true
        return judge(mean)
    }

    private mutating func judge(_ mean: CalibrationReading) -> PoseDecision {
        let g = ClassifierSettings().gravity
        for (vector, isBase) in [(mean.display, false), (mean.base, true)] {
            guard let vector else { continue }
            let ratio = vector.length / g
            if abs(ratio - 1) > settings.gravityTolerance { return .refused(.notOneG(g: ratio, base: isBase)) }
        }
        if let previous {
            let angle = mean.display.degrees(to: previous)
            if angle < settings.turn.lowerBound { return .refused(.tooCloseToPrevious(degrees: angle)) }
            if angle > settings.turn.upperBound { return .refused(.turnedTooFar(degrees: angle)) }
        }
        previous = mean.display
        return .taken(PoseMeasurement(display: mean.display, base: mean.base, time: mean.time))
    }

    private func mean(of readings: [CalibrationReading]) -> CalibrationReading {
        let scale = 1 / Double(readings.count)
        let display = readings.reduce(Vector3.zero) { $0 + $1.display } * scale
        let base = needsBase ? readings.reduce(Vector3.zero) { $0 + ($1.base ?? .zero) } * scale : nil
        return CalibrationReading(time: readings[readings.count - 1].time, display: display, base: base)
    }

    /// The largest distance of a reading (display or base) from `mean`.
    private func spread(of readings: [CalibrationReading], around mean: CalibrationReading) -> Double {
        readings.reduce(0) { largest, reading in
            var distance = (reading.display - mean.display).length
            if let base = reading.base, let meanBase = mean.base { distance = max(distance, (base - meanBase).length) }
            return max(largest, distance)
        }
    }
}
