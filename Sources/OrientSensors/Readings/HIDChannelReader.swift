import Logging

/// A HID sensor hub's channel read through its buffer (``IIOBufferedChannel``), with iio-sensor-proxy 3.8's
/// answer to a buffer that gives nothing: no scan within ``silenceLimit`` of opening, it is opened again (buffer,
/// trigger and sampling frequency set anew); none within as long again, its raw attribute (`in_<channel>_raw`,
/// which powers the sensor up for each read) is polled instead, value = (raw + offset) × scale. Each step is one
/// line in the log, and so is a first scan after being opened again.
///
/// A hub reports on change, so a buffer silent after its first scan is a steady room, not a stall: only the wait
/// for the first scan is bounded. Used on its capture's thread only.
final class HIDChannelReader {
    static let silenceLimit = 2.0

    private let open: () throws(AttributeFault) -> IIOBufferedChannel
    private let id: String
    private let rawPath: String
    private let logger: Logger
    /// Nil once polled.
    private var buffer: IIOBufferedChannel?
    private var openedAt: Double
    private var reopened = false
    private var polled: (offset: Double, scale: Double)?
    /// What was logged since ``takeIncidents()``.
    private var incidents: [String] = []

    /// Opens the channel as ``IIOBufferedChannel`` does; see there for the arguments.
    init(device: IIODeviceFacts, channel: String, sharedPrefix: String, trigger: String, logger: Logger) throws(AttributeFault) {
        open = { () throws(AttributeFault) in
            try IIOBufferedChannel(device: device, channel: channel, sharedPrefix: sharedPrefix, trigger: trigger, logger: logger)
        }
        id = device.id
        rawPath = device.attributePath("in_\(channel)_raw")
        self.logger = logger
        buffer = try open()
        openedAt = monotonicSeconds()
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
    /// powers the sensor up to read it), not the last scan again.
    func readFresh() throws(AttributeFault) -> Double? {
        guard polled == nil, let buffer else { return try read() }
        guard try buffer.drain(), let value = buffer.value else { return try rawValue(buffer.offset, buffer.scale) }
        return scanned(value, from: buffer)
    }

    /// A scan's value, once one came: the first after the buffer was opened again is logged, and silence from now on
    /// is a steady room.
    private func scanned(_ value: Double, from buffer: IIOBufferedChannel) -> Double {
        if reopened {
            reopened = false
            note(.notice, "\(id): \(buffer.nodePath) gave its first scan once opened again")
        }
        openedAt = -.infinity
        return value
    }

    /// (raw + offset) × scale, from the raw attribute: what a read powers the sensor up for.
    private func rawValue(_ offset: Double, _ scale: Double) throws(AttributeFault) -> Double {
        (try readNumber(rawPath) + offset) * scale
    }

    /// The value now: the last complete scan's, or the raw attribute's once polled; nil before the first.
    func read() throws(AttributeFault) -> Double? {
        if let polled { return try rawValue(polled.offset, polled.scale) }
        guard let buffer else { return nil }
        try buffer.drain()
        if let value = buffer.value { return scanned(value, from: buffer) }
        guard monotonicSeconds() - openedAt > Self.silenceLimit else { return nil }
        let scaling = (offset: buffer.offset, scale: buffer.scale)
        self.buffer = nil  // closed first: the device takes one buffer at a time
        if !reopened {
            note(.warning, "\(id): \(buffer.nodePath) gave no scan within \(Self.silenceLimit) s of opening; opening it again")
            reopened = true
            openedAt = monotonicSeconds()
            do {
                self.buffer = try open()
                return nil
            } catch {
                note(.warning, "\(id): cannot open it again (\(error)); reading \(rawPath) instead")
            }
        } else {
            note(
                .warning,
                "\(id): \(buffer.nodePath) gave no scan within \(Self.silenceLimit) s of opening again; reading \(rawPath) instead")
        }
        polled = scaling
        return try read()
    }
}
