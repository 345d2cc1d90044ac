import Logging

/// A HID sensor hub's channel read through its buffer (``ChannelBuffer``: ``IIOBufferedChannel``, or a test's).
///
/// A hub sends a scan only when its reading changes beyond its change sensitivity, so a steady room (or a compass
/// lying still) sends nothing, and the last value holds. Hubs are also known to stall. So a silence is checked with
/// the raw attribute (`in_<channel>_raw`, a GET_REPORT the hub answers while it sends nothing, powering the sensor up
/// for the read), on ``BufferSilence``'s schedule (after 2 s, 4 s more, then every 8 s): with no scan yet since the
/// buffer opened (a hub whose sensor was already on sends nothing until it changes), the raw reading is taken and
/// held; reading as held, it is steady; reading elsewhere (beyond `tolerance`), the buffer stalled, and the raw
/// attribute is read instead from then on, value = (raw + offset) × scale, each step a line in the log. The first
/// value is a scan's when one comes (as iio-sensor-proxy reads it), so that the light filter's doubt of a first 0 after
/// a resume applies to it. Used on its capture's thread only.
final class HIDChannelReader {
    /// When two values of the channel are the same reading, for a silence check.
    enum Tolerance {
        /// Within this fraction of the larger, or within `floor`: a light level.
        case relative(Double, floor: Double)
        /// Within this many degrees, either way round: a heading.
        case degrees(Double)

        func same(_ a: Double, _ b: Double) -> Bool {
            switch self {
            case .relative(let fraction, let floor): return abs(a - b) <= max(floor, fraction * max(abs(a), abs(b)))
            case .degrees(let degrees):
                let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
                return min(difference, 360 - difference) <= degrees
            }
        }
    }

    private let id: String
    private let rawPath: String
    private let tolerance: Tolerance
    private let logger: Logger
    /// Seconds on a monotonic clock: the silence's.
    private let now: () -> Double
    /// Nil once polled.
    private var buffer: (any ChannelBuffer)?
    private var polled: (offset: Double, scale: Double)?
    /// The value that holds: the last scan's or raw read's; nil before the first.
    private var held: Double?
    /// When a scan last came, or the silence was last checked.
    private var lastNews: Double
    private var silence = BufferSilence()
    /// What was logged since ``takeIncidents()``.
    private var incidents: [String] = []

    /// Reads `buffer`, and the raw attribute at `rawPath` when it is silent, on the clock `now`.
    init(
        buffer: any ChannelBuffer, id: String, rawPath: String, tolerance: Tolerance, now: @escaping () -> Double,
        logger: Logger
    ) {
        self.id = id
        self.rawPath = rawPath
        self.tolerance = tolerance
        self.now = now
        self.logger = logger
        self.buffer = buffer
        lastNews = now()
    }

    /// What it ran into since the last call, as it logged it.
    func takeIncidents() -> [String] {
        defer { incidents = [] }
        return incidents
    }

    private func note(_ level: Logger.Level, _ text: String) {
        logger.log(level: level, "\(text)")
        incidents.append(text)
    }

    /// The value now from the sensor itself: a scan that came since the last read, else the raw attribute's (which
    /// powers the sensor up to read it), not the held value again.
    func readFresh() throws(AttributeFault) -> Double? {
        guard polled == nil, let buffer else { return try read() }
        if let scanned = try scan(from: buffer) { return scanned }
        let value = try rawValue(buffer.offset, buffer.scale)
        held = value
        return value
    }

    /// The value now: the last scan's (or, while none comes, the one that holds), or the raw attribute's once polled.
    func read() throws(AttributeFault) -> Double? {
        if let polled { return try rawValue(polled.offset, polled.scale) }
        guard let buffer else { return nil }
        if let scanned = try scan(from: buffer) { return scanned }
        let silent = now() - lastNews
        guard silence.isDue(after: silent) else { return held }
        let current = try rawValue(buffer.offset, buffer.scale)
        lastNews = now()
        guard let held else {
            // No scan since the buffer opened: the sensor was on already, and sends nothing until it changes.
            self.held = current
            return current
        }
        if silence.check(readsAsHeld: tolerance.same(held, current)) == .still { return held }
        let seconds = (silent * 10).rounded(.down) / 10
        note(
            .warning,
            "\(id): \(buffer.nodePath) sent nothing for \(seconds) s while \(rawPath) went from \(held) to \(current); reading it instead")
        polled = (buffer.offset, buffer.scale)
        self.buffer = nil
        self.held = current
        return current
    }

    /// A scan that came since the last call, held; the silence is checked early again when it changed.
    private func scan(from buffer: any ChannelBuffer) throws(AttributeFault) -> Double? {
        guard try buffer.drain(), let value = buffer.value else { return nil }
        if !(held.map { tolerance.same($0, value) } ?? false) { silence.delivered() }
        held = value
        lastNews = now()
        return value
    }

    /// (raw + offset) × scale, from the raw attribute: what a read powers the sensor up for.
    private func rawValue(_ offset: Double, _ scale: Double) throws(AttributeFault) -> Double {
        (try readNumber(rawPath) + offset) * scale
    }
}
