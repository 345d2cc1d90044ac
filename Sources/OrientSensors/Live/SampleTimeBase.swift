/// Puts the timestamps of buffered scans on the monotonic clock: the time base of polled samples, and so of
/// everything the daemon publishes, whichever mode the capture is in or falls back to.
///
/// With the device's clock known, a stamp is moved by the distance between that clock and the monotonic one
/// at the moment it is read (so a step of the wall clock is followed). With it unknown, the first stamp is
/// anchored at the moment it was read. A result later than now, or not after the last one, means the stamps
/// jumped: the sample is taken as read now, and an unknown clock is anchored again, so time never runs
/// backwards or ahead. Pure: the caller passes the clocks in.
struct SampleTimeBase {
    /// The device's timestamp clock, when it names one.
    let clock: TimestampClock?
    private var anchor: Double?
    private var last = -Double.infinity

    init(clock: TimestampClock?) {
        self.clock = clock
    }

    /// - Parameters:
    ///   - stamp: the scan's timestamp, in seconds on the device's clock.
    ///   - now: the monotonic clock now.
    ///   - clockNow: the device's clock now, when it is known.
    mutating func monotonic(stamp: Double, now: Double, clockNow: Double?) -> Double {
        var time: Double
        if let clockNow {
            time = stamp + (now - clockNow)
        } else {
            let anchor = self.anchor ?? (now - stamp)
            self.anchor = anchor
            time = stamp + anchor
        }
        if time > now || time <= last {
            time = max(now, last.nextUp)
            if clockNow == nil { anchor = time - stamp }
        }
        last = time
        return time
    }
}
