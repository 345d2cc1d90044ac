import Logging
import OrientCore

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

/// The capture loop of ``IIOSampleSource``, confined to its thread.
final class LiveCapture {
    private let configuration: LiveSensorConfiguration
    let capture: CaptureSettings
    private let deliver: @Sendable (SensorEvent) -> Void
    private let stop: StopFlag
    private let udev: any AccelerometerDirectory
    private let opener: any AccelerometerOpener
    let logger: Logger
    private let learned: LearnedGravity

    /// Polled reads failing this many times in a row (about 1.5 s with the backoff) make the sensor unavailable
    /// until a read succeeds again: a sensor that only ever fails must not look like one that is still.
    static let failuresBeforeUnavailable = 5

    var reader: AccelerometerReader?
    private var candidate: AccelerometerCandidate?
    /// A convertible's keyboard sensor, read after each display reading.
    private let base: BaseFollower
    /// A kernel hinge sensor, read beside the display sensor.
    private let hinge: HingeFollower
    /// The open sensor's readings, scaled and corrected.
    private var readings = ScaledReadings(scale: nil, learnedBefore: nil)
    private var timeBase = SampleTimeBase(clock: nil)
    /// The last `.noSensor` reason sent, so that waiting does not repeat it every second.
    private var lastReason: String?
    var failures = 0
    /// What `.opened` says about the open display sensor, its base aside (see ``described``).
    private var displayDescription: SensorDescription?
    /// The open buffered device's last reading, its silence and the period asked of it (LiveCapture+Buffered.swift).
    var held = HeldReading()
    /// The lid switch, polled with udev's events.
    private var lid: LidWatch?

    init(
        configuration: LiveSensorConfiguration, capture: CaptureSettings, udev: any AccelerometerDirectory,
        opener: any AccelerometerOpener, deliver: @escaping @Sendable (SensorEvent) -> Void, stop: StopFlag,
        logger: Logger, learned: LearnedGravity
    ) {
        self.configuration = configuration
        self.capture = capture
        self.udev = udev
        self.opener = opener
        self.deliver = deliver
        self.stop = stop
        self.logger = logger
        self.learned = learned
        base = BaseFollower(
            readsBase: configuration.readsBase, opener: opener, learned: learned, logger: logger, deliver: deliver)
        hinge = HingeFollower(readsHinge: configuration.readsBase, logger: logger, deliver: deliver)
    }

    /// What `.opened` says about the open sensor, its base and hinge sensors, as they are now; said again when it
    /// reads again after failing, and when a base or hinge sensor comes.
    private var described: SensorDescription? {
        guard var description = displayDescription else { return nil }
        description.base = base.description
        description.hinge = hinge.description
        return description
    }

    func run() {
        guard let udevEvents = udev.subscribe(UdevSession.accelerometerSubsystems) else {
            deliver(.noSensor(reason: "cannot watch for sensors: no pipe for udev's events"))
            return
        }
        defer { udev.unsubscribe(udevEvents) }
        let monitor = udevEvents.descriptor
        lid = LidWatch(node: udev.lidSwitchNode(), logger: logger, deliver: deliver)
        var pace = SamplingPace(
            fullRate: capture.rate, stillRate: capture.stillRate ?? capture.rate, restRate: capture.restRate)
        var nextRead = monotonicSeconds()
        var pollInstead = false
        while !stop.isSet {
            if reader == nil {
                open(buffered: true)
                nextRead = monotonicSeconds()
                pace.reset()
            }
            switch reader {
            case nil:
                if waitReadable(monitor, seconds: 1) { handleEvents(udevEvents.take()) }
            case .polled(let polled):
                if waitReadable(monitor, seconds: max(0, nextRead - monotonicSeconds())) { handleEvents(udevEvents.take()) }
                guard case .polled = reader, monotonicSeconds() >= nextRead else { continue }
                nextRead = readPolled(polled, pace: &pace, scheduled: nextRead)
            case .buffered(let buffered, _):
                if waitReadable(monitor, seconds: 0) { handleEvents(udevEvents.take()) }
                guard case .buffered = reader else { continue }
                pollInstead = !readBuffered(buffered, pace: &pace)
            }
            // Out of the switch, where nothing holds the buffer any more: the kernel allows one open buffer per device,
            // and the polled reads must not find it still enabled.
            if pollInstead {
                pollInstead = false
                fallBackToPolling()
            }
        }
    }

    /// Reads a polled sensor once, as scheduled for `scheduled`; returns when to read next: at the pace's period, or
    /// after a backoff when the read failed.
    private func readPolled(_ polled: any PolledAccelerometer, pace: inout SamplingPace, scheduled: Double) -> Double {
        let period = 1 / capture.rate
        guard let reading = attempt({ () throws(SensorError) in try polled.read() }) else {
            return monotonicSeconds() + backoff
        }
        let sample = emit(reading)
        let next = scheduled + (sample.map { pace.period(after: $0.acceleration, base: $0.base, hinge: $0.hinge?.degrees, at: $0.time) } ?? period)
        // After a stall, carry on from now instead of reading in a burst to catch up.
        return next < monotonicSeconds() - period ? monotonicSeconds() + period : next
    }

    /// A polled read, with failures counted for the backoff and a vanished device closed.
    private func attempt(_ read: () throws(SensorError) -> UnscaledReading) -> UnscaledReading? {
        do {
            let reading = try read()
            // `.closed` was sent when the failures reached the limit; the sensor is back.
            let wasUnavailable = failures >= Self.failuresBeforeUnavailable
            failures = 0
            if wasUnavailable, let described {
                incident(.notice, "\(described.id) reads again")
                deliver(.opened(described))
            }
            return reading
        } catch {
            if error.deviceIsGone {
                close(reason: "\(error)")
            } else {
                failures += 1
                logger.warning("\(error); retrying in \(backoff) s (\(failures) in a row)")
                if failures == Self.failuresBeforeUnavailable {
                    deliver(.lost(reason: "\(failures) reads in a row failed: \(error)"))
                }
            }
            return nil
        }
    }

    /// 0.1 s, doubling with each failure in a row, at most 2 s.
    private var backoff: Double { min(2.0, 0.1 * Double(1 << min(max(failures - 1, 0), 5))) }

    private func fallBackToPolling() {
        reader = nil
        open(buffered: false)
    }

    /// The accelerometers present, as udev lists them.
    private func accelerometers() -> [AccelerometerCandidate] {
        udev.accelerometers() ?? []
    }

    private func open(buffered: Bool) {
        let candidates = accelerometers()
        switch SensorSelection.choose(from: candidates, configured: configuration.device) {
        case .none(let reason):
            announceNoSensor(reason)
        case .chosen(let chosen, let reason):
            let opened: OpenedAccelerometer
            do {
                opened = try opener.open(chosen, reason: reason, buffered: buffered)
            } catch {
                announceNoSensor("cannot \(chosen.inputNode == nil ? "open" : "read") \(chosen.id): \(error)")
                return
            }
            held = HeldReading(period: 1 / capture.rate)
            if opened.hasBase { base.open(beside: chosen, candidates: candidates.filter { $0.inputNode == nil }) }
            hinge.open(from: udev.hingeSensors())
            adopt(opened, chosen)
        }
    }

    /// Takes `opened` as the sensor read from now on: its readings scaled by its scale (`nil`: learned at rest) and
    /// corrected by what was learned of it before, its times on its clock; logs what it uses and tells the consumer
    /// it opened.
    private func adopt(_ opened: OpenedAccelerometer, _ chosen: AccelerometerCandidate) {
        let (scale, clock) = (opened.scale, opened.clock)
        reader = opened.reader
        candidate = chosen
        let learnedBefore = learned.correction(id: chosen.id, publishedScale: scale)
        readings = ScaledReadings(scale: scale, learnedBefore: learnedBefore)
        timeBase = SampleTimeBase(clock: clock)
        lastReason = nil
        failures = 0
        if let learnedBefore {
            logger.info("\(chosen.id): correcting readings ×\(GravityCorrection.format(learnedBefore)), as learned at rest before")
        } else if scale == nil {
            logger.notice("\(chosen.id) reports no scale: learning 1 g from readings at rest")
        }
        logger.info("\(opened.using)")
        displayDescription = opened.description
        if let described { deliver(.opened(described)) }
    }

    /// Scales a reading, corrects it by what was learned of the scale, pairs it with the base's, and delivers it;
    /// nil while a sensor without a scale has not been learned yet.
    @discardableResult
    func emit(_ reading: UnscaledReading) -> AccelSample? {
        emit(reading, at: time(of: reading))
    }

    /// A reading's time on the monotonic clock: its own timestamp's, else now.
    func time(of reading: UnscaledReading) -> Double {
        let now = monotonicSeconds()
        return reading.timestamp.map { timeBase.monotonic(stamp: $0, now: now, clockNow: timeBase.clock?.now) } ?? now
    }

    @discardableResult
    func emit(_ reading: UnscaledReading, at time: Double) -> AccelSample? {
        let (acceleration, learned) = readings.take(reading.value, at: time)
        if let learned { announce(learned) }
        guard let acceleration else { return nil }
        let sample = AccelSample(
            time: time, acceleration: acceleration,
            base: base.reading(pairedWith: time, failuresBeforeLost: Self.failuresBeforeUnavailable),
            hinge: hinge.angle(pairedWith: time, failuresBeforeLost: Self.failuresBeforeUnavailable))
        deliver(.sample(sample))
        return sample
    }

    /// Logs what was learned of the scale (a warning when it corrects a published scale), remembers it for the next
    /// capture, and tells the consumer.
    private func announce(_ correction: GravityCorrection) {
        let text = correction.explanation(device: displayDescription?.displayName ?? candidate?.id ?? "the sensor")
        if correction.publishedScale == nil { logger.notice("\(text)") } else { logger.warning("\(text)") }
        if let id = candidate?.id { learned.remember(correction.factor, id: id, publishedScale: correction.publishedScale) }
        deliver(.gravityLearned(correction))
    }

    private func handleEvents(_ events: [UdevEvent]) {
        for event in events {
            logger.debug("udev \(event.action) \(event.id)")
            if event.action == "remove", event.id == candidate?.id { close(reason: "\(event.id) was removed") }
            if event.action == "remove", event.id == base.id { base.lose(reason: "\(event.id) was removed") }
            if event.action == "remove", event.id == hinge.id { hinge.lose(reason: "\(event.id) was removed") }
            // An added device is picked up by the next scan, made at once while no sensor is open; a base or hinge
            // sensor added beside an open display sensor is opened now.
            guard event.action == "add", let chosen = candidate, displayDescription != nil else { continue }
            let baseOpened =
                !base.isOpen && chosen.inputNode == nil
                && base.open(beside: chosen, candidates: accelerometers().filter { $0.inputNode == nil })
            let hingeOpened = !hinge.isOpen && hinge.open(from: udev.hingeSensors())
            if baseOpened || hingeOpened, let described { deliver(.opened(described)) }
        }
    }

    func close(reason: String) {
        logger.warning("sensor lost: \(reason)")
        reader = nil
        base.close()
        hinge.close()
        candidate = nil
        held = HeldReading()
        failures = 0
        deliver(.lost(reason: reason))
    }

    /// Logs what the capture ran into and handled, and tells the consumer (`status` counts it).
    func incident(_ level: Logger.Level, _ text: String) {
        logger.log(level: level, "\(text)")
        deliver(.incident(text))
    }

    private func announceNoSensor(_ reason: String) {
        guard reason != lastReason else { return }
        lastReason = reason
        logger.notice("\(reason); waiting for a sensor")
        deliver(.noSensor(reason: reason))
    }

    /// Whether `descriptor` became readable within `seconds`; a stop returns false at once. The lid switch is
    /// watched in the same wait, and a change of it is delivered here.
    private func waitReadable(_ descriptor: Int32, seconds: Double) -> Bool {
        // On the stack: this runs before every polled sample, and an array here was its one heap allocation.
        let lidDescriptor = lid?.descriptor
        var entries = (
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: lidDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
        )
        let count = nfds_t(lidDescriptor == nil ? 2 : 3)
        let ready = withUnsafeMutableBytes(of: &entries) { bytes in
            poll(bytes.baseAddress!.assumingMemoryBound(to: pollfd.self), count, Int32((seconds * 1000).rounded(.up)))
        }
        guard ready > 0, entries.1.revents == 0 else { return false }
        if entries.2.revents != 0 { lid?.ready(entries.2.revents) }
        return entries.0.revents != 0
    }
}
