/// Decides which ambient light readings are published, so that brightness follows the room and not a hand's
/// shadow or the sensor's noise (iio-sensor-proxy publishes every change: hadess/iio-sensor-proxy#261).
///
/// A reading is published when it is the first, when it differs from the published level by more than the
/// threshold (a ratio, either way) and a reading at least a hold later agrees with it (``hold(departingBy:)``:
/// shorter for a larger change), or when the sensor has read the same value ``restReadings`` times in a row (at rest, the published level is the sensor's). What it
/// publishes is always a value the sensor read, never an average or an extrapolation. Pure: the caller gives
/// each reading's time, in seconds on any monotonic clock.
///
/// A sensor opened again (after a resume, a stall, a release) that first reads exactly 0, where it read light before,
/// is read again ``zeroRecheck`` later before 0 is published: sensors are known to give one phantom 0 as they wake.
public struct LightFilter: Sendable, Equatable {
    /// How long a new level must last to be published, for changes up to ``shadowRatio``: shadows of a typing
    /// hand are shorter.
    public static let hold = 0.5
    /// How long a change of ``sureRatio`` or more must last: lights switched off or on.
    public static let shortHold = 0.15
    /// A typing hand's shadow dims the sensor to a third at the darkest (35 to 70 % in the recorded cases).
    static let shadowRatio = 3.0
    /// Ten times brighter or dimmer is the room changing, not a hand passing over the sensor.
    static let sureRatio = 10.0
    /// How many equal readings in a row make a level at rest, published even below the threshold.
    public static let restReadings = 3
    /// Readings that late after the hold still count as the hold: the reader's timer rounds.
    static let holdTolerance = 0.05
    /// Levels below this count as this: in the dark, 0.2 and 0.6 lux are the same darkness.
    static let floor = 1.0
    /// How soon a first 0 after an open is read again.
    public static let zeroRecheck = 0.2

    /// The relative change that counts, as a fraction (0.2: 20 % brighter or 1.2 times dimmer). 0 publishes every
    /// change at once, as iio-sensor-proxy does.
    public var threshold: Double
    public private(set) var published: Double?
    /// The first reading of a level that departs from the published one, waiting for a later reading to agree.
    private var departure: Sample?
    /// The latest readings, newest last, at most ``restReadings``.
    private var recent: [Double] = []
    /// The level published before the last ``reset()``, while nothing has been published since.
    private var publishedBeforeReset: Double?
    /// A first 0 after a reset has been read again once already.
    private var zeroRechecked = false

    private struct Sample: Sendable, Equatable {
        var level: Double
        var time: Double
    }

    public init(threshold: Double) {
        self.threshold = threshold
    }

    /// Forgets everything read: the next reading is published as the first (a sensor opened again).
    public mutating func reset() {
        publishedBeforeReset = published ?? publishedBeforeReset
        zeroRechecked = false
        published = nil
        departure = nil
        recent = []
    }

    /// Takes the reading `level` made at `time`.
    public mutating func take(_ level: Double, at time: Double) -> LightDecision {
        if published == nil, level == 0, let before = publishedBeforeReset, before > 0, !zeroRechecked {
            zeroRechecked = true
            return LightDecision(readAgainAt: time + Self.zeroRecheck)
        }
        recent.append(level)
        if recent.count > Self.restReadings { recent.removeFirst() }
        guard let published, threshold > 0 else {
            return level == published ? .keep : publish(level)
        }
        guard differs(level, from: published) else {
            departure = nil
            let atRest = recent.count == Self.restReadings && recent.allSatisfy { $0 == level }
            return atRest && level != published ? publish(level) : .keep
        }
        if let first = departure, !differs(level, from: first.level) {
            let hold = Self.hold(departingBy: ratio(first.level, published))
            if time - first.time >= hold - Self.holdTolerance { return publish(level) }
            return LightDecision(readAgainAt: first.time + hold)
        }
        departure = Sample(level: level, time: time)
        return LightDecision(readAgainAt: time + Self.hold(departingBy: ratio(level, published)))
    }

    /// How long a level `ratio` times brighter or dimmer than the published one must last: ``hold`` up to
    /// ``shadowRatio``, ``shortHold`` from ``sureRatio`` on, and in proportion in between. A room
    /// going dark must not wait as long as a flicker: with a read every 0.8 s, lights switched off are published
    /// at most 0.95 s after they go off.
    public static func hold(departingBy ratio: Double) -> Double {
        if ratio <= shadowRatio { return hold }
        if ratio >= sureRatio { return shortHold }
        return hold - (hold - shortHold) * (ratio - shadowRatio) / (sureRatio - shadowRatio)
    }

    /// How many times brighter or dimmer `a` is than `b` (at least 1), both counted from ``floor``.
    private func ratio(_ a: Double, _ b: Double) -> Double {
        let (a, b) = (max(a, Self.floor), max(b, Self.floor))
        return max(a, b) / min(a, b)
    }

    /// Whether `a` and `b` are further apart than the threshold, as a ratio.
    public func differs(_ a: Double, from b: Double) -> Bool {
        // A ratio, not logarithms: the filter runs at every reading of a claimed sensor, and libm's log costs the
        // daemon pages of code that nothing else of it touches (BENCHMARKS.md, "Steady-state cost").
        ratio(a, b) > 1 + threshold
    }

    private mutating func publish(_ level: Double) -> LightDecision {
        publishedBeforeReset = nil
        published = level
        departure = nil
        return LightDecision(publish: level)
    }
}

/// What ``LightFilter`` makes of one reading.
public struct LightDecision: Sendable, Equatable {
    /// The level to publish now, if any.
    public var publish: Double?
    /// When a reading would confirm a level that departs (the reader may read sooner than its interval).
    public var readAgainAt: Double?

    public init(publish: Double? = nil, readAgainAt: Double? = nil) {
        self.publish = publish
        self.readAgainAt = readAgainAt
    }

    /// Nothing to publish, nothing to confirm.
    public static let keep = LightDecision()
}
