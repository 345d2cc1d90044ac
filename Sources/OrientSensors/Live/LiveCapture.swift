import Logging
import OrientCore
import OrientInput

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

/// The capture loop of ``IIOSampleSource``, confined to its thread.
final class LiveCapture {
    private let configuration: LiveSensorConfiguration
    private let capture: CaptureSettings
    private let deliver: @Sendable (SensorEvent) -> Void
    private let stop: StopFlag
    private let logger: Logger
    private let learned: LearnedGravity

    /// How the open sensor is read.
    private enum Reader {
        case polled(IIOPolledAccelerometer)
        case buffered(IIOBufferedAccelerometer, openedAt: Double)

        var device: IIODevice {
            switch self {
            case .polled(let reader): reader.device
            case .buffered(let reader, _): reader.device
            }
        }
    }

    /// A buffered device that delivers nothing for this long is read by polling instead (HID sensor hubs are
    /// known to stall: iio-sensor-proxy issues #135, #170, #212).
    static let stallLimit = 2.0
    /// Polled reads failing this many times in a row (about 1.5 s with the backoff) make the sensor unavailable
    /// until a read succeeds again: a sensor that only ever fails must not look like one that is still.
    static let failuresBeforeUnavailable = 5

    private var reader: Reader?
    private var candidate: AccelerometerCandidate?
    /// A convertible's keyboard sensor, read after each display reading; `nil` on a tablet or once it failed.
    private var base: BaseSensor?
    private var baseFailures = 0
    private var calibrator = GravityCalibrator(publishedScale: nil)
    private var timeBase = SampleTimeBase(clock: nil)
    /// The last `.noSensor` reason sent, so that waiting does not repeat it every second.
    private var lastReason: String?
    private var failures = 0
    /// What `.opened` said about the open sensor, said again when it reads again after failing.
    private var openedDescription: SensorDescription?
    private var lastDelivery = 0.0
    /// The sampling period last asked of a buffered device: the full rate's when opened, the still rate's once still.
    private var bufferedPeriod = 0.0
    /// The lid switch, when an input device reports SW_LID and it could be opened; polled with the udev monitor.
    private var lid: LidSwitch?

    init(
        configuration: LiveSensorConfiguration, capture: CaptureSettings, deliver: @escaping @Sendable (SensorEvent) -> Void,
        stop: StopFlag, logger: Logger, learned: LearnedGravity
    ) {
        self.configuration = configuration
        self.capture = capture
        self.deliver = deliver
        self.stop = stop
        self.logger = logger
        self.learned = learned
    }

    func run() {
        let udev: UdevSession
        let monitor: Int32
        do {
            (udev, monitor) = try UdevSession.watching()
        } catch {
            deliver(.noSensor(reason: "cannot watch for sensors: \(error)"))
            return
        }
        openLid(udev)
        let period = 1 / capture.rate
        var pace = SamplingPace(fullRate: capture.rate, stillRate: capture.stillRate ?? capture.rate)
        var nextRead = monotonicSeconds()
        while !stop.isSet {
            if reader == nil {
                open(udev, buffered: true)
                nextRead = monotonicSeconds()
                pace.reset()
            }
            switch reader {
            case nil:
                if waitReadable(monitor, seconds: 1) { handleEvents(udev) }
            case .polled(let polled):
                if waitReadable(monitor, seconds: max(0, nextRead - monotonicSeconds())) { handleEvents(udev) }
                guard case .polled = reader, monotonicSeconds() >= nextRead else { continue }
                if let reading = attempt({ () throws(SensorError) in try polled.read() }) {
                    let sample = emit(reading, scale: polled.device.scale)
                    nextRead += sample.map { pace.period(after: $0.acceleration, base: $0.base, at: $0.time) } ?? period
                    // After a stall, carry on from now instead of reading in a burst to catch up.
                    if nextRead < monotonicSeconds() - period { nextRead = monotonicSeconds() + period }
                } else {
                    nextRead = monotonicSeconds() + backoff
                }
            case .buffered(let buffered, let openedAt):
                if waitReadable(monitor, seconds: 0) { handleEvents(udev) }
                guard case .buffered = reader else { continue }
                do {
                    let readings = try buffered.read()
                    failures = 0
                    var wanted: Double?
                    for reading in readings {
                        if let sample = emit(reading, scale: buffered.device.scale) {
                            wanted = pace.period(after: sample.acceleration, base: sample.base, at: sample.time)
                        }
                    }
                    if !readings.isEmpty { lastDelivery = monotonicSeconds() }
                    // Still: the device itself samples slowly (a HID hub then wakes the host less); at the first
                    // reading that differs, back to the full rate.
                    if let wanted, wanted != bufferedPeriod {
                        bufferedPeriod = wanted
                        buffered.device.requestRate(1 / wanted)
                        logger.debug("\(buffered.device.id): sampling_frequency \(1 / wanted) Hz requested")
                    }
                } catch where error.errno == ETIMEDOUT || error.errno == EAGAIN {
                    // Nothing this time; the stall check below decides.
                } catch where error.deviceIsGone {
                    close(reason: "\(error)")
                    continue
                } catch {
                    logger.warning("buffered capture failed: \(error); polling instead")
                    fallBackToPolling(udev)
                    continue
                }
                if monotonicSeconds() - max(lastDelivery, openedAt) > Self.stallLimit {
                    logger.warning("\(buffered.device.id): buffered capture delivered nothing for \(Self.stallLimit) s; polling instead")
                    fallBackToPolling(udev)
                }
            }
        }
    }

    /// A polled read, with failures counted for the backoff and a vanished device closed.
    private func attempt(_ read: () throws(SensorError) -> UnscaledReading) -> UnscaledReading? {
        do {
            let reading = try read()
            // `.closed` was sent when the failures reached the limit; the sensor is back.
            let wasUnavailable = failures >= Self.failuresBeforeUnavailable
            failures = 0
            if wasUnavailable, let openedDescription {
                logger.notice("\(openedDescription.id) reads again")
                deliver(.opened(openedDescription))
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

    private func fallBackToPolling(_ udev: UdevSession) {
        reader = nil
        open(udev, buffered: false)
    }

    private func open(_ udev: UdevSession, buffered: Bool) {
        let candidates = udev.accelerometers()
        switch SensorSelection.choose(from: candidates, configured: configuration.device) {
        case .none(let reason):
            announceNoSensor(reason)
        case .chosen(let chosen, let reason):
            do {
                let device = try IIODevice(id: chosen.id, requestedRate: capture.rate)
                bufferedPeriod = 1 / capture.rate
                var opened: Reader = .polled(IIOPolledAccelerometer(device))
                var pollingReason: String?
                let access = BufferedAccess(deviceID: chosen.id, sysfsPath: chosen.path)
                if buffered, !access.isPermitted {
                    pollingReason = access.explanation
                    logger.warning("\(chosen.id): polling: \(access.explanation)")
                } else if buffered {
                    do {
                        opened = .buffered(try IIOBufferedAccelerometer(device), openedAt: monotonicSeconds())
                    } catch {
                        pollingReason = "no buffered capture: \(error)"
                        logger.info("\(chosen.id): no buffered capture (\(error)); polling")
                    }
                }
                let (matrix, source, problems) = chosen.mountMatrix()
                for problem in problems { logger.warning("\(problem)") }
                base = openBase(beside: chosen, candidates: candidates)
                reader = opened
                candidate = chosen
                let learnedBefore = learned.correction(id: chosen.id, publishedScale: device.scale)
                calibrator = GravityCalibrator(publishedScale: device.scale, learnedBefore: learnedBefore)
                timeBase = SampleTimeBase(clock: device.timestampClock)
                lastReason = nil
                failures = 0
                if let learnedBefore {
                    logger.info("\(chosen.id): correcting readings ×\(GravityCorrection.format(learnedBefore)), as learned at rest before")
                } else if device.scale == nil {
                    logger.notice("\(chosen.id) reports no scale: learning 1 g from readings at rest")
                }
                logger.info("using \(chosen.id): \(reason)")
                let mode: SensorDescription.CaptureMode = if case .buffered = opened { .buffered } else { .polled }
                let description = SensorDescription(
                    id: chosen.id, name: device.name ?? chosen.name ?? chosen.id, location: chosen.location, mode: mode,
                    rate: device.rate ?? capture.rate, mountMatrix: matrix, mountMatrixSource: source,
                    base: base?.description, scaleSource: device.scale == nil ? .learned : .device, pollingReason: pollingReason)
                openedDescription = description
                deliver(.opened(description))
            } catch {
                announceNoSensor("cannot open \(chosen.id): \(error)")
            }
        }
    }

    /// Scales a reading, corrects it by what the calibrator learned, and delivers it; nil while a sensor without a
    /// scale has not been learned yet.
    @discardableResult
    private func emit(_ reading: UnscaledReading, scale: Vector3?) -> AccelSample? {
        let unscaled = reading.value
        let now = monotonicSeconds()
        let time = reading.timestamp.map { timeBase.monotonic(stamp: $0, now: now, clockNow: timeBase.clock?.now) } ?? now
        let published = scale.map { Vector3(unscaled.x * $0.x, unscaled.y * $0.y, unscaled.z * $0.z) } ?? unscaled
        if let correction = calibrator.learn(magnitude: published.length, at: time) { announce(correction) }
        guard let factor = calibrator.correction else { return nil }
        let sample = AccelSample(
            time: time, acceleration: factor == 1 ? published : published * factor, base: readBase(at: time))
        deliver(.sample(sample))
        return sample
    }

    /// Logs what the calibrator learned (a warning when it corrects a published scale), remembers it for the next
    /// capture, and tells the consumer.
    private func announce(_ correction: GravityCorrection) {
        let text = correction.explanation(device: openedDescription?.displayName ?? candidate?.id ?? "the sensor")
        if correction.publishedScale == nil { logger.notice("\(text)") } else { logger.warning("\(text)") }
        if let id = candidate?.id { learned.remember(correction.factor, id: id, publishedScale: correction.publishedScale) }
        deliver(.gravityLearned(correction))
    }

    private func handleEvents(_ udev: UdevSession) {
        while let event = udev.nextEvent() {
            logger.debug("udev \(event.action) \(event.id)")
            if event.action == "remove", event.id == candidate?.id { close(reason: "\(event.id) was removed") }
            if event.action == "remove", event.id == base?.id { baseLost(reason: "\(event.id) was removed") }
            // An added device is picked up by the next scan, made at once while no sensor is open; a base sensor
            // added beside an open display sensor is opened now.
            if event.action == "add", base == nil, let chosen = candidate, let description = openedDescription {
                base = openBase(beside: chosen, candidates: udev.accelerometers())
                if let base {
                    var described = description
                    described.base = base.description
                    openedDescription = described
                    deliver(.opened(described))
                }
            }
        }
    }

    /// Opens the base sensor beside the display's, if the device has one; a base that cannot be opened leaves
    /// the display alone at work, as on a tablet.
    private func openBase(beside display: AccelerometerCandidate, candidates: [AccelerometerCandidate]) -> BaseSensor? {
        guard configuration.readsBase, let found = SensorSelection.base(from: candidates, display: display) else { return nil }
        do {
            let deliver = self.deliver
            let sensor = try BaseSensor(found, rate: capture.rate, learned: learned, logger: logger) {
                deliver(.baseGravityLearned($0))
            }
            baseFailures = 0
            logger.info("base accelerometer \(found.id): mount matrix \(sensor.mountMatrix) (from \(sensor.matrixSource))")
            return sensor
        } catch {
            logger.warning("cannot open the base accelerometer \(found.id): \(error); no posture")
            return nil
        }
    }

    /// The base reading to pair with a display reading taken at `time`; `nil` without one.
    private func readBase(at time: Double) -> Vector3? {
        guard let base else { return nil }
        do {
            let reading = try base.read(at: time)
            baseFailures = 0
            return reading
        } catch {
            baseFailures += 1
            if error.deviceIsGone || baseFailures >= Self.failuresBeforeUnavailable {
                baseLost(reason: "\(error)")
            } else {
                logger.warning("base accelerometer: \(error) (\(baseFailures) in a row)")
            }
            return nil
        }
    }

    private func baseLost(reason: String) {
        logger.warning("base accelerometer lost: \(reason); the display sensor alone turns the screen")
        base = nil
        if var described = openedDescription {
            described.base = nil
            openedDescription = described
        }
        deliver(.baseLost(reason: reason))
    }

    private func close(reason: String) {
        logger.warning("sensor lost: \(reason)")
        reader = nil
        base = nil
        candidate = nil
        failures = 0
        deliver(.lost(reason: reason))
    }

    private func announceNoSensor(_ reason: String) {
        guard reason != lastReason else { return }
        lastReason = reason
        logger.notice("\(reason); waiting for a sensor")
        deliver(.noSensor(reason: reason))
    }

    /// Whether `descriptor` became readable within `seconds`. The lid switch is watched in the same wait, and
    /// a change of it is delivered here.
    private func waitReadable(_ descriptor: Int32, seconds: Double) -> Bool {
        // On the stack: this runs before every polled sample, and an array here was its one heap allocation.
        var entries = (
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: lid?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)
        )
        let count = nfds_t(lid == nil ? 1 : 2)
        let ready = withUnsafeMutableBytes(of: &entries) { bytes in
            poll(bytes.baseAddress!.assumingMemoryBound(to: pollfd.self), count, Int32((seconds * 1000).rounded(.up)))
        }
        guard ready > 0 else { return false }
        if let lid, entries.1.revents != 0 {
            if entries.1.revents & Int16(POLLIN) == 0 {
                logger.notice("lid switch \(lid.path) went away")
                self.lid = nil
            } else if let closed = lid.readChanges() {
                logger.info("lid switch: \(closed ? "shut" : "open")")
                deliver(.lid(closed: closed))
            }
        }
        return entries.0.revents != 0
    }

    /// Opens the lid switch, if an input device has one, and says what it reads. Without it (none, or no access),
    /// closed and folded flat are told apart by the last angle, as docs/convertibles.md says.
    private func openLid(_ udev: UdevSession) {
        guard let node = udev.lidSwitchNode() else { return }
        do {
            let opened = try LidSwitch(path: node)
            lid = opened
            logger.info("lid switch \(node): \(opened.closed ? "shut" : "open")")
            deliver(.lid(closed: opened.closed))
        } catch {
            logger.notice("lid switch: \(error); shut and folded flat are told apart by the last hinge angle")
        }
    }
}
