/// Decides which ambient light readings are published, so that brightness follows the room and not a hand's
/// shadow or the sensor's noise (iio-sensor-proxy publishes every change: hadess/iio-sensor-proxy#261).
///
/// Six rules, each publishing a value the sensor read, never an average or an extrapolation:
/// - **The first reading** is published at once.
/// - **A departure**, a reading that differs from the published level by more than the threshold (a ratio,
///   either way), is published once every reading for a hold has agreed with it (``hold(departingBy:)``): departed
///   alike (within the threshold of the median of those held, give or take half a lux of rounding), or back within the
///   threshold but on its side by at least a drift's worth (below). The hold outlasts a typing hand's shadow
///   (``shadowHold``) for changes a shadow can make, and is short (``shortHold``) for a change of ``sureRatio`` or
///   more: lights switched off or on. In the dark it begins with the readings before it that were as far away but only
///   a unit. What is published is the median of the readings held, or the latest one after a short hold.
/// - **A drift**, the room going slowly darker or brighter (dusk, a cloud), is followed below the threshold: a line
///   (``LightLine``) is drawn through the readings of the last ``driftWindow``, every one within the threshold, and
///   once it puts the room now a fifth of the threshold away and some of its own error beyond (``driftDoubt``), on the
///   side the latest reading lies, the reading nearest it is published. A drift the way the last one went, soon after
///   it, needs half as far (``onwardPart``); once drifts have gone back and forth, a drift back again soon after needs
///   twice as far (``reversalGap``).
/// - **A trend**, two drifts in a row the same way (``trendGap``): from then on, at every reading, a line is drawn
///   through the readings of the last ``trendWindow``, and the reading nearest where it puts the room now is published
///   once it lies further along by a tenth of the threshold, so that a ramp is followed as closely as its readings
///   allow; for ``trendHoldsBack`` after each, no level back against it is published at rest or as a drift. Any other
///   level published ends it; noise and flicker swing both ways, and rarely make two drifts in a row.
/// - **At rest**, the sensor reading the same value ``restReadings`` times in a row, that value is published even
///   below the threshold, so that the level at rest is the sensor's.
/// - **Follow-ups**: lights switched off or on are followed by the level settled since, ``followUps`` later.
///
/// Pure: the caller gives each reading's time, in seconds on any monotonic clock. A sensor opened again (after a
/// resume, a stall, a release) that first reads exactly 0, where it read light before, is read again
/// ``zeroRecheck`` later before 0 is published: sensors are known to give one phantom 0 as they wake.
public struct LightFilter: Sendable, Equatable {
    /// How long a departure of up to ``shadowRatio`` must last: longer than a typing hand's shadow, which dims the
    /// sensor to between half and nine tenths for up to 2.5 s, seen for up to 1 s longer by a sensor that updates
    /// its value once a second.
    public static let shadowHold = 2.8
    /// How long a departure of ``sureRatio`` or more must last: one reading more.
    public static let shortHold = 0.15
    /// The deepest a shadow dims the sensor, with noise and flicker on top: halved, and a little more.
    static let shadowRatio = 2.4
    /// Three times brighter or dimmer is the room changing, not a hand passing over the sensor; read through the
    /// sensor's noise and flicker from a published level that itself read a little high or low, it can look like 2.7.
    static let sureRatio = 2.7
    /// The readings a drift's line is drawn through: longer than a typing hand's shadow and than half of flicker's
    /// slowest beat (10 s), which a shorter line leans with. The rule before it, every reading of 2.4 s on one side,
    /// published nearly three times as many levels in steady rooms and followed fewer ramps (BENCHMARKS.md, "a line
    /// through 7 s").
    public static let driftWindow = 7.0
    /// A drift's line needs at least this many readings, spanning at least ``driftSpan``: all of the window but a poll
    /// and a half.
    static let driftReadings = 6
    static let driftSpan = 5.5
    /// A drift counts once it reaches this part of the threshold, and ``driftDoubt`` beyond.
    static let driftPart = 0.2
    /// How much of its line's standard error a drift must reach beyond ``driftPart``: in a steady room with 5 % noise,
    /// a line through 7 s of readings strays about 3 % at its end, and without this a drift was published 14 times a
    /// minute, where the rule before published 9 (BENCHMARKS.md, "a line through 7 s").
    static let driftDoubt = 0.75
    /// A drift back against the drift published less than this long ago, which itself went back against the one before
    /// it as soon, must reach ``reversalPart`` times ``driftPart``: levels going back and forth are noise or flicker's
    /// beat, not a room. The first drift back is not held: a ramp may start just after noise drifted the other way. It
    /// took the levels published in a steady room with 5 % noise from 8.3 a minute to 6.8, and with a beat of 4 % over
    /// 8 s from 14.4 to 8.9 (BENCHMARKS.md, "back and forth").
    static let reversalGap = 10.0
    static let reversalPart = 2.0
    /// A drift the way the one published last went, less than ``trendGap`` after it, needs only this part of
    /// ``driftPart``: a ramp's second drift comes while the line still leans on readings from before the ramp, and
    /// coming late it was what most often took a ramp more than 10 % off. It took the ramps followed within 10 % in 400
    /// rooms from 226 to 255, and the levels published in a steady room with 5 % noise from 6.8 a minute to 7.8
    /// (BENCHMARKS.md, "a ramp's second drift").
    static let onwardPart = 0.5
    /// A drift this soon after one the same way makes a trend; each reading published along the trend keeps it. A ramp
    /// of ×2 in 30 s drifts by ``driftPart`` of a 20 % threshold every 2 to 5 s.
    static let trendGap = 8.0
    /// Along a trend, a reading counts once it reaches this part of the threshold.
    static let trendPart = 0.1
    /// The readings a trend's line is drawn through: longer than a drift's, for along a trend the room is known to move
    /// and a longer line strays less with the noise. Publishing the reading nearest it, and not the latest reading,
    /// keeps a reading that noise threw further along from being published and then held (``trendHoldsBack``).
    static let trendWindow = 10.0
    /// For this long after a level published along a trend, none back against it is published at rest or as a drift: a
    /// ramp's readings scatter both ways about it, and a level published back would end the trend, to be found again
    /// only two drifts later. Not longer: a trend that was flicker must not keep the start of a real ramp back.
    static let trendHoldsBack = 5.0
    /// The readings a follow-up takes the level settled from.
    static let settledWindow = 2.4
    /// How long after lights switched off or on (a departure of ``sureRatio`` or more) the level settled since is
    /// published again. Automatic brightness (gsd-power 43) moves towards each level it hears by Δt / (Δt + 1.6 s), Δt
    /// the time since the level before, so one level heard 6 s after another takes the screen only 80 % of the way,
    /// where it stays until the next. With these two it is within 4 % of the way, whatever came before.
    public static let followUps = [5.0, 15.0]
    /// How many equal readings in a row make a level at rest, published even below the threshold.
    public static let restReadings = 3
    /// Readings that late after the hold still count as the hold: the reader's timer rounds.
    static let holdTolerance = 0.05
    /// Levels below this count as this, and levels this close are one: in the dark, 0.2 and 0.6 lux are the same
    /// darkness, and so are 3 and 4.
    static let floor = 1.0
    /// How soon a first 0 after an open is read again.
    public static let zeroRecheck = 0.2

    /// The relative change that counts, as a fraction (0.2: 20 % brighter or 1.2 times dimmer). 0 publishes every
    /// change at once, as iio-sensor-proxy does.
    public var threshold: Double
    public private(set) var published: Double?
    /// A level that departs from the published one; every reading since has agreed with it.
    private var departure: Departure?
    /// The readings of the last ``trendWindow``, and a little more, oldest first.
    private var readings: [LightSample] = []
    /// The level published before the last ``reset()``, while nothing has been published since.
    private var publishedBeforeReset: Double?
    /// A first 0 after a reset has been read again once already.
    private var zeroRechecked = false
    /// When the last level was published.
    private var lastPublished: Double?
    /// When the settled level is published next, after lights switched off or on (``followUps``).
    private var followUpsDue: [Double] = []
    /// The last drift published, or reading published along a trend: a trend while nothing else has been published
    /// since.
    private var lastDrift: Drift?

    private struct Drift: Sendable, Equatable {
        var brighter: Bool
        var time: Double
        /// How many drifts in a row, each within ``trendGap`` of the one before, have gone this way.
        var inARow: Int
        /// It went back against the drift before it, published less than ``reversalGap`` before.
        var wentBack: Bool
    }

    private struct Departure: Sendable, Equatable {
        /// The first reading that departed.
        var level: Double
        /// When the readings left the published level: that reading, or the drifting ones just before it.
        var since: Double
        /// When the first reading that departed came.
        var departed: Double
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
        readings = []
        followUpsDue = []
    }

    /// Takes the reading `level` made at `time`.
    public mutating func take(_ level: Double, at time: Double) -> LightDecision {
        if published == nil, level == 0, let before = publishedBeforeReset, before > 0, !zeroRechecked {
            zeroRechecked = true
            return LightDecision(readAgainAt: time + Self.zeroRecheck, doubtedZero: true)
        }
        readings.removeAll { $0.time < time - max(Self.shadowHold, Self.driftWindow, Self.trendWindow) - 1 }
        readings.append(LightSample(level: level, time: time))
        guard let published, threshold > 0 else {
            return level == published ? .keep : publish(level, at: time)
        }
        let departs = differs(level, from: published)
        // A departure goes on while readings agree with those it has held: departed, or back within the threshold but
        // on its side by a drift (a ramp crossing the threshold reads on both sides of it). A shadow ending comes all
        // the way back, and a reading that agrees with neither starts over.
        if let held = departure, agrees(level, withDepartureFrom: held.departed, before: time),
            departs || drifts(level, from: published, towards: held.level)
        {
            return confirm(held, reading: level, at: time, from: published)
        }
        guard departs else {
            departure = nil
            return publishAtRest(level, at: time, from: published) ?? publishFollowUp(at: time, from: published)
                ?? publishAlongTrend(at: time, from: published) ?? publishDrift(at: time, from: published)
                ?? .keep
        }
        // In the dark it began with the readings just before it that were as far from the published level but only a
        // unit away: 2 lux rising to 3.5 reads 3 (one level with 2) before it reads 4. Not with readings that departed
        // and were given up: a shadow's.
        let since = readings.dropLast().reversed().prefix {
            ($0.level > published) == (level > published) && ratio($0.level, published) > 1 + threshold
                && !differs($0.level, from: published)
        }.last?.time
        let started = Departure(level: level, since: since ?? time, departed: time)
        departure = started
        return confirm(started, reading: level, at: time, from: published)
    }

    /// The departure published once it has lasted its hold, and at least one reading beyond its first departed one;
    /// otherwise when to read again.
    private mutating func confirm(
        _ held: Departure, reading level: Double, at time: Double, from published: Double
    ) -> LightDecision {
        let size = ratio(held.level, published)
        let due = max(held.since + Self.hold(departingBy: size), held.departed + Self.shortHold)
        guard time >= due - Self.holdTolerance else { return LightDecision(readAgainAt: due) }
        // A new level ends the follow-ups of the one before; lights switched off or on get their own.
        followUpsDue = size >= Self.sureRatio ? Self.followUps.map { time + $0 } : []
        let settled = size >= Self.sureRatio ? level : Self.median(of: readings.filter { $0.time >= held.since })
        return publish(settled, at: time)
    }

    /// Whether `level` agrees with the readings of the departure so far: within the threshold of their median, each
    /// allowed half a lux of rounding (a sensor that reads whole lux reads a room of 9 lux as 8 to 10).
    private func agrees(_ level: Double, withDepartureFrom start: Double, before time: Double) -> Bool {
        let held = readings.filter { $0.time >= start && $0.time < time }
        let median = held.isEmpty ? level : Self.median(of: held)
        let (high, low) = (max(level, median, Self.floor) - 0.5, max(min(level, median), Self.floor) + 0.5)
        return high <= low * (1 + threshold)
    }

    /// Whether `level` lies on the side of `published` that `side` does, by at least ``driftPart`` of the threshold.
    private func drifts(_ level: Double, from published: Double, towards side: Double) -> Bool {
        (level > published) == (side > published) && ratio(level, published) > 1 + threshold * Self.driftPart
    }

    /// How long a level `ratio` times brighter or dimmer than the published one must last: ``shadowHold`` up to
    /// ``shadowRatio``, ``shortHold`` from ``sureRatio`` on, and in proportion in between. With a read every 0.8 s,
    /// lights switched off are published at most 0.95 s after the first reading that saw them go.
    public static func hold(departingBy ratio: Double) -> Double {
        if ratio <= shadowRatio { return shadowHold }
        if ratio >= sureRatio { return shortHold }
        return shadowHold - (shadowHold - shortHold) * (ratio - shadowRatio) / (sureRatio - shadowRatio)
    }

    /// The sensor's value once it has read it ``restReadings`` times in a row, if that is not the level published.
    private mutating func publishAtRest(_ level: Double, at time: Double, from published: Double) -> LightDecision? {
        let last = readings.suffix(Self.restReadings)
        guard last.count == Self.restReadings, last.allSatisfy({ $0.level == level }), level != published,
            !goesBack(level, againstTrendAt: time, from: published)
        else { return nil }
        return publish(level, at: time)
    }

    /// The reading nearest where a line through the last ``driftWindow`` puts the room now, once that is ``driftPart``
    /// of the threshold (``onwardPart`` of that the way the last drift went, ``reversalPart`` times that going back and
    /// forth) and ``driftDoubt`` of the line's standard error away from `published`, every reading in the window is
    /// within the threshold of it (a shadow is a departure, however it ends), and the latest reading lies on that side.
    private mutating func publishDrift(at time: Double, from published: Double) -> LightDecision? {
        let window = readings(of: Self.driftWindow, upTo: time)
        guard window.count >= Self.driftReadings, let oldest = window.first, let latest = window.last,
            time - oldest.time >= Self.driftSpan, window.allSatisfy({ !differs($0.level, from: published) })
        else { return nil }
        let (now, error) = LightLine.level(through: window, at: time)
        let brighter = now > published
        let doubt = Self.driftDoubt * error / max(published, Self.floor)
        let backAndForth = reverses(brighter, at: time) && lastDrift?.wentBack == true
        let onward = trend(at: time)?.brighter == brighter
        let part = threshold * Self.driftPart * (backAndForth ? Self.reversalPart : onward ? Self.onwardPart : 1)
        guard ratio(now, published) > 1 + part + doubt, (latest.level > published) == brighter
        else { return nil }
        let nearest = window.map(\.level).filter { ($0 > published) == brighter }.min { abs($0 - now) < abs($1 - now) }
        guard let nearest, abs(nearest - published) > Self.floor,
            !goesBack(nearest, againstTrendAt: time, from: published)
        else { return nil }
        return publishAsDrift(nearest, at: time, from: published)
    }

    /// Whether a drift `brighter` or dimmer at `time` goes back against the level published last, a drift published less
    /// than ``reversalGap`` ago.
    private func reverses(_ brighter: Bool, at time: Double) -> Bool {
        guard let lastDrift, lastDrift.time == lastPublished else { return false }
        return lastDrift.brighter != brighter && time - lastDrift.time < Self.reversalGap
    }

    /// Once two drifts in a row have gone one way, the reading of the last ``trendWindow`` nearest where a line through
    /// them puts the room now, if it lies further along than `published` by ``trendPart`` of the threshold.
    private mutating func publishAlongTrend(at time: Double, from published: Double) -> LightDecision? {
        guard let trend = establishedTrend(at: time) else { return nil }
        let window = readings(of: Self.trendWindow, upTo: time)
        let now = LightLine.level(through: window, at: time).level
        guard let level = window.map(\.level).min(by: { abs($0 - now) < abs($1 - now) }),
            (level > published) == trend.brighter, ratio(level, published) > 1 + threshold * Self.trendPart
        else { return nil }
        return publishAsDrift(level, at: time, from: published)
    }

    /// Whether `level` goes back against a trend that published less than ``trendHoldsBack`` ago.
    private func goesBack(_ level: Double, againstTrendAt time: Double, from published: Double) -> Bool {
        guard let trend = establishedTrend(at: time), time - trend.time <= Self.trendHoldsBack else { return false }
        return (level > published) != trend.brighter
    }

    /// The trend, once two drifts in a row have made one: ``trend(at:)`` when it has gone that far.
    private func establishedTrend(at time: Double) -> Drift? {
        trend(at: time).flatMap { $0.inARow >= 2 ? $0 : nil }
    }

    /// The last drift, while it is the last level published and no older than ``trendGap``.
    private func trend(at time: Double) -> Drift? {
        guard let lastDrift, lastDrift.time == lastPublished, time - lastDrift.time <= Self.trendGap else { return nil }
        return lastDrift
    }

    /// Publishes `level` as a drift from `published`, one more in a row when the trend it follows went the same way.
    private mutating func publishAsDrift(_ level: Double, at time: Double, from published: Double) -> LightDecision {
        let brighter = level > published
        let before = trend(at: time).flatMap { $0.brighter == brighter ? $0.inARow : nil } ?? 0
        lastDrift = Drift(brighter: brighter, time: time, inARow: before + 1, wentBack: reverses(brighter, at: time))
        return publish(level, at: time)
    }

    /// The readings of the last `span` up to `time`: of 2.4 s, three of a reader that polls every 0.8 s, not a fourth
    /// its timer's rounding puts a hair inside.
    private func readings(of span: Double, upTo time: Double) -> [LightSample] {
        readings.filter { $0.time > time - span + Self.holdTolerance }
    }

    /// The middle level of `samples` (the lower of the two middle ones for an even count): a value read.
    private static func median(of samples: [LightSample]) -> Double {
        samples.map(\.level).middle
    }

    /// How many times brighter or dimmer `a` is than `b` (at least 1), both counted from ``floor``.
    private func ratio(_ a: Double, _ b: Double) -> Double {
        let (a, b) = (max(a, Self.floor), max(b, Self.floor))
        return max(a, b) / min(a, b)
    }

    /// Whether `a` and `b` are further apart than the threshold, as a ratio, and by more than ``floor``: in the dark a
    /// sensor's readings step by whole units, and 3 and 4 lux are one level.
    public func differs(_ a: Double, from b: Double) -> Bool {
        // A ratio, not logarithms: the filter runs at every reading of a claimed sensor, and libm's log costs the
        // daemon pages of code that nothing else of it touches (BENCHMARKS.md, "Steady-state cost").
        ratio(a, b) > 1 + threshold && abs(a - b) > Self.floor
    }

    /// After lights switched off or on, at each of ``followUps``: the level settled now, the median of the readings of
    /// the last ``settledWindow`` since the last level published, or, where that is the level published, the reading
    /// nearest it that is not. A client hears only a level that changed, and it is the update that it needs.
    private mutating func publishFollowUp(at time: Double, from published: Double) -> LightDecision? {
        guard let due = followUpsDue.first, time >= due, let since = lastPublished else { return nil }
        followUpsDue.removeFirst()
        let settled = readings(of: Self.settledWindow, upTo: time).filter { $0.time > since }
        guard !settled.isEmpty else { return nil }
        let median = Self.median(of: settled)
        guard median == published else { return publish(median, at: time) }
        // Of two as near, the later: the one the sensor agrees with now.
        let others = settled.map(\.level).filter { $0 != published }.reversed()
        return others.min { abs($0 - median) < abs($1 - median) }.map { publish($0, at: time) }
    }

    private mutating func publish(_ level: Double, at time: Double) -> LightDecision {
        lastPublished = time
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
    /// The reading was a first 0 after the sensor opened again, where it read light before: held back until read
    /// again (``LightFilter/zeroRecheck``).
    public var doubtedZero: Bool

    public init(publish: Double? = nil, readAgainAt: Double? = nil, doubtedZero: Bool = false) {
        self.publish = publish
        self.readAgainAt = readAgainAt
        self.doubtedZero = doubtedZero
    }

    /// Nothing to publish, nothing to confirm.
    public static let keep = LightDecision()
}
