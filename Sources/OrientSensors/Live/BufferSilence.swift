import OrientCore

/// Whether a buffered accelerometer that has sent nothing for a while is still or stalled. Pure: the capture loop
/// reads the sensor, keeps the times and decides what a stall calls for (``LiveCapture``).
///
/// A HID sensor hub sends a reading only when it changes by more than its change sensitivity, as hub firmware is
/// written to (Microsoft's sensor guidelines, "Filtering data"): a device held still sends nothing, for as long as it
/// is still. Hubs are also known to stall, sending nothing while the device turns (iio-sensor-proxy issues #135,
/// #170, #212). Silence alone cannot tell the two apart; the sensor's raw attributes can: on a HID hub a raw read is
/// a GET_REPORT, which the hub answers with its reading even while it sends nothing, and on any driver a read of
/// the part's registers. So after ``firstCheck`` seconds of silence the sensor is read once: a reading where the
/// buffer's last one was is a still device, and the next check waits twice as long, up to ``longestInterval``; a
/// reading elsewhere (or none at all since the buffer opened) is a stall.
///
/// The bound, on a still device: one raw read (three attributes: three GET_REPORTs on a HID hub) after 2 s of
/// silence, after 4 s more, then one every 8 s. A stall is
/// seen at the first check after the device moves: within 8 s of the move, or 2 s when it came soon after a
/// reading (a stall that hides no move changes nothing a client sees); from then on the sensor is polled.
struct BufferSilence {
    /// Seconds of silence before the first check: the stall limit iio-sensor-proxy-era hubs were given.
    static let firstCheck = 2.0
    /// The longest silence between two checks of a still device.
    static let longestInterval = 8.0
    /// How far the sensor may read from the buffer's last reading, in m/s² on any axis, and still be taken for
    /// still: past a hub's change sensitivity (0.02 g is the guidelines' default) and noise, and far below the
    /// 45° of hysteresis an orientation change needs (about 7 m/s² on an axis).
    static let stillTolerance = 1.0

    /// What a check found.
    enum Finding: Equatable {
        /// The sensor reads where the buffer last said: held still; check again after a longer silence.
        case still
        /// It reads elsewhere, or the buffer gave nothing since it opened: the buffer stalled.
        case stalled
    }

    /// The silence, in seconds, at which the next check is due.
    private(set) var interval = firstCheck

    /// Scans came that moved: the next silence is checked after ``firstCheck`` again.
    mutating func delivered() {
        interval = Self.firstCheck
    }

    /// Whether a check is due after `silence` seconds with nothing from the buffer (or since the last check).
    func isDue(after silence: Double) -> Bool {
        silence >= interval
    }

    /// Compares what the sensor reads now with the buffer's last reading, both scaled to m/s² (`last` nil: nothing
    /// since the buffer opened), and waits longer before the next check when it is still.
    mutating func check(last: Vector3?, now: Vector3) -> Finding {
        check(readsAsHeld: last.map { Self.isStill($0, now) } ?? false)
    }

    /// The finding of a check whose read found the sensor where its last reading was, or not; a still one waits
    /// longer before the next check.
    mutating func check(readsAsHeld: Bool) -> Finding {
        guard readsAsHeld else { return .stalled }
        interval = min(interval * 2, Self.longestInterval)
        return .still
    }

    /// Whether two readings in m/s² are the same within ``stillTolerance`` on every axis.
    static func isStill(_ a: Vector3, _ b: Vector3) -> Bool {
        let difference = b - a
        return max(abs(difference.x), abs(difference.y), abs(difference.z)) <= stillTolerance
    }
}
