import RealModule

/// Decides which ambient light readings are published, so that brightness follows the room and not a hand's
/// shadow or the sensor's noise (iio-sensor-proxy publishes every change: hadess/iio-sensor-proxy#261).
///
/// A reading is published when it is the first, when it differs from the published level by more than the
/// threshold (a ratio, either way) and a reading at least ``hold`` later agrees with it, or when the sensor has
/// read the same value ``restReadings`` times in a row (at rest, the published level is the sensor's). What it
/// publishes is always a value the sensor read, never an average or an extrapolation. Pure: the caller gives
/// each reading's time, in seconds on any monotonic clock.
public struct LightFilter: Sendable, Equatable {
    /// How long a new level must last to be published: shadows of a typing hand are shorter.
    public static let hold = 0.5
    /// How many equal readings in a row make a level at rest, published even below the threshold.
    public static let restReadings = 3
    /// Readings that late after the hold still count as the hold: the reader's timer rounds.
    static let holdTolerance = 0.05
    /// Levels below this count as this: in the dark, 0.2 and 0.6 lux are the same darkness.
    static let floor = 1.0

    /// The relative change that counts, as a fraction (0.2: 20 % brighter or 1.2 times dimmer). 0 publishes every
    /// change at once, as iio-sensor-proxy does.
    public var threshold: Double
    public private(set) var published: Double?
    /// The first reading of a level that departs from the published one, waiting for a later reading to agree.
    private var departure: Sample?
    /// The latest readings, newest last, at most ``restReadings``.
    private var recent: [Double] = []

    private struct Sample: Sendable, Equatable {
        var level: Double
        var time: Double
    }

    public init(threshold: Double) {
        self.threshold = threshold
    }

    /// Forgets everything read: the next reading is published as the first (a sensor opened again).
    public mutating func reset() {
        published = nil
        departure = nil
        recent = []
    }

    /// Takes the reading `level` made at `time`.
    public mutating func take(_ level: Double, at time: Double) -> LightDecision {
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
            if time - first.time >= Self.hold - Self.holdTolerance { return publish(level) }
            return LightDecision(readAgainAt: first.time + Self.hold)
        }
        departure = Sample(level: level, time: time)
        return LightDecision(readAgainAt: time + Self.hold)
    }

    /// Whether `a` and `b` are further apart than the threshold, as a ratio.
    public func differs(_ a: Double, from b: Double) -> Bool {
        abs(Double.log(max(a, Self.floor) / max(b, Self.floor))) > Double.log(onePlus: threshold)
    }

    private mutating func publish(_ level: Double) -> LightDecision {
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
