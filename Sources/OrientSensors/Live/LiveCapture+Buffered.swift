import OrientCore

#if canImport(Glibc)
import Glibc
import OrientSampleSource
#endif

/// What the capture knows of the open buffered device between two reads.
struct HeldReading {
    /// Its last reading (raw + offset, no timestamp); nil until the first, read when it opens.
    var reading: UnscaledReading?
    /// Whether its first reading was asked of its raw attributes (once: a buffer-only device has none).
    var asked = false
    /// When it last delivered, or its silence was last checked.
    var lastDelivery = 0.0
    /// When a reading, its own or held, last went out.
    var lastEmitted = 0.0
    /// When a reading of the raw attributes last went out: buffered scans from before it are not delivered.
    var lastRawRead = -Double.infinity
    /// Whether its silence is a still device or a stall.
    var silence = BufferSilence()
    /// The sampling period last asked of it: the full rate's when opened, the still rate's once still, the rest
    /// rate's at rest. Its last reading is held at this period while it says nothing.
    var period = 0.0

    init(period: Double = 0) {
        self.period = period
    }
}

extension LiveCapture {
    /// Takes what a buffered sensor has given since the last time; returns false when it should be polled instead.
    ///
    /// A HID sensor hub sends a reading only when it changes beyond its change sensitivity, so while it says nothing
    /// its last reading still holds: it goes out again at the pace's period, as the classifier takes a gap for a
    /// sensor that stopped. It is read once from the raw attributes when the buffer opens (a hub whose sensor was
    /// already powered sends nothing until it moves), and again at each silence check (``BufferSilence``): reading
    /// elsewhere than it held, the buffer stalled, and the sensor is polled from then on, as iio-sensor-proxy 3.8
    /// and later poll a buffer that gives nothing.
    func readBuffered(_ buffered: any BufferedAccelerometer, pace: inout SamplingPace) -> Bool {
        if !held.asked {
            held.asked = true
            held.lastDelivery = monotonicSeconds()
            buffered.waitLimit = held.period
            if let first = rawReading(buffered) { take(first, from: buffered, pace: &pace, raw: true) }
            guard case .buffered = reader else { return true }
        }
        do {
            let readings = try buffered.read()
            failures = 0
            let before = held.reading
            for reading in readings { take(reading, from: buffered, pace: &pace) }
            if let last = readings.last {
                held.lastDelivery = monotonicSeconds()
                // A reading where the held one was is no news: a HID driver puts the answer to the check's own raw
                // read in the buffer too, and that must not make the next check come early.
                if let before, !BufferSilence.isStill(metres(before.value, of: buffered), metres(last.value, of: buffered)) {
                    held.silence.delivered()
                }
            }
        } catch where error.errno == ETIMEDOUT || error.errno == EAGAIN {
            // Nothing this time; the silence decides below.
        } catch where error.deviceIsGone {
            close(reason: "\(error)")
            return true
        } catch {
            logger.warning("buffered capture failed: \(error); polling instead")
            return false
        }
        let now = monotonicSeconds()
        let silent = now - held.lastDelivery
        if held.silence.isDue(after: silent) {
            return checkSilence(of: buffered, silent: silent, pace: &pace)
        }
        if let reading = held.reading, now - held.lastEmitted >= held.period {
            take(UnscaledReading(value: reading.value, timestamp: nil), from: buffered, pace: &pace)
        }
        return true
    }

    /// Delivers a reading, holds it, and asks the device for the pace's rate: a still device samples slowly (a HID
    /// hub then wakes the host less), and at the first reading that differs, fast again.
    private func take(
        _ reading: UnscaledReading, from buffered: any BufferedAccelerometer, pace: inout SamplingPace, raw: Bool = false
    ) {
        var time = time(of: reading)
        // A buffered scan from before a raw reading already delivered (the answer to that very read, which a HID
        // driver puts in the buffer too) adds nothing, and would take time back.
        guard raw || time > held.lastRawRead else { return }
        // A scan stamped just before the held reading last went out, but read after it, is news all the same: it
        // goes out a microsecond (a trace's resolution) after the held one, since time may not go back.
        if time <= held.lastEmitted { time = held.lastEmitted + 1e-6 }
        held.reading = UnscaledReading(value: reading.value, timestamp: nil)
        held.lastEmitted = time
        if raw { held.lastRawRead = time }
        guard let sample = emit(reading, at: time) else { return }
        let wanted = pace.period(after: sample.acceleration, base: sample.base, hinge: sample.hinge?.degrees, at: sample.time)
        guard wanted != held.period else { return }
        held.period = wanted
        buffered.requestRate(1 / wanted)
        buffered.waitLimit = wanted
        logger.debug("\(buffered.id): sampling_frequency \(1 / wanted) Hz requested")
    }

    /// One silence check: a raw read where the held reading is, still; elsewhere, a stall to poll.
    private func checkSilence(of buffered: any BufferedAccelerometer, silent: Double, pace: inout SamplingPace) -> Bool {
        let interval = held.silence.interval
        guard let current = rawReading(buffered) else { return true }
        let last = held.reading.map { metres($0.value, of: buffered) }
        let now = metres(current.value, of: buffered)
        held.lastDelivery = monotonicSeconds()
        switch held.silence.check(last: last, now: now) {
        case .still:
            logger.debug("\(buffered.id): silent for \(interval) s, and reads as it did: still, not stalled")
            take(current, from: buffered, pace: &pace, raw: true)
            return true
        case .stalled:
            let seconds = (silent * 10).rounded(.down) / 10
            incident(
                .warning,
                "\(buffered.id): buffered capture delivered nothing for \(seconds) s while the sensor moved from \(last.map(format) ?? "nothing") to \(format(now)); polling instead")
            return false
        }
    }

    /// The sensor's raw attributes read once (on a HID hub, a GET_REPORT the hub answers even while it sends
    /// nothing); nil when they cannot be, after closing a device that is gone.
    private func rawReading(_ buffered: any BufferedAccelerometer) -> UnscaledReading? {
        do {
            return try buffered.readRaw()
        } catch {
            if error.deviceIsGone {
                close(reason: "\(error)")
            } else {
                logger.debug("\(buffered.id): its raw attributes cannot be read: \(error)")
            }
            return nil
        }
    }

    /// A reading in m/s² (the device's scale, or 1 g where it gives none), for a silence check.
    private func metres(_ value: Vector3, of buffered: any BufferedAccelerometer) -> Vector3 {
        if let scale = buffered.scale { return Vector3(value.x * scale.x, value.y * scale.y, value.z * scale.z) }
        let length = value.length
        return length > 0 ? value * (GravityCalibrator.standardGravity / length) : value
    }

    /// `(0.01, -9.81, 0.2)`, as the log shows a reading.
    private func format(_ vector: Vector3) -> String {
        func number(_ value: Double) -> String { String((value * 100).rounded() / 100) }
        return "(\(number(vector.x)), \(number(vector.y)), \(number(vector.z)))"
    }
}
