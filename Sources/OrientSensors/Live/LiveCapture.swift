import Logging
import OrientCore

#if canImport(Glibc)
import Glibc
#endif

/// The capture loop of ``IIOSampleSource``, confined to its thread.
final class LiveCapture {
    private let configuration: LiveSensorConfiguration
    private let output: AsyncStream<SensorEvent>.Continuation
    private let stop: StopFlag
    private let logger: Logger

    private var sensor: IIOPolledAccelerometer?
    private var candidate: AccelerometerCandidate?
    private var calibrator = GravityCalibrator()
    /// The last `.noSensor` reason sent, so that waiting does not repeat it every second.
    private var lastReason: String?
    private var failures = 0

    init(configuration: LiveSensorConfiguration, output: AsyncStream<SensorEvent>.Continuation, stop: StopFlag, logger: Logger) {
        self.configuration = configuration
        self.output = output
        self.stop = stop
        self.logger = logger
    }

    func run() {
        defer { output.finish() }
        let udev: UdevSession
        let monitor: Int32
        do {
            udev = try UdevSession()
            monitor = try udev.monitorDescriptor()
        } catch {
            output.yield(.noSensor(reason: "cannot watch for sensors: \(error)"))
            return
        }
        let period = 1 / configuration.rate
        var nextRead = monotonicSeconds()
        while !stop.isSet {
            if sensor == nil {
                open(udev)
                nextRead = monotonicSeconds()
            }
            // Wait for the next reading, or at most a second while there is no sensor, waking for udev events.
            let wait = sensor == nil ? 1.0 : max(0, nextRead - monotonicSeconds())
            if waitReadable(monitor, seconds: wait) { handleEvents(udev) }
            guard let sensor, monotonicSeconds() >= nextRead else { continue }
            do {
                let unscaled = try sensor.readUnscaled()
                failures = 0
                emit(unscaled, scale: sensor.scale, time: monotonicSeconds())
                nextRead += period
                // After a stall, carry on from now instead of reading in a burst to catch up.
                if nextRead < monotonicSeconds() - period { nextRead = monotonicSeconds() + period }
            } catch {
                if error.deviceIsGone {
                    close(reason: "\(error)")
                    continue
                }
                failures += 1
                let backoff = min(2.0, 0.1 * Double(1 << min(failures - 1, 5)))
                logger.warning("\(error); retrying in \(backoff) s (\(failures) in a row)")
                nextRead = monotonicSeconds() + backoff
            }
        }
    }

    private func open(_ udev: UdevSession) {
        let candidates = udev.accelerometers()
        switch SensorSelection.choose(from: candidates, configured: configuration.device) {
        case .none(let reason):
            announceNoSensor(reason)
        case .chosen(let chosen, let reason):
            do {
                let opened = try IIOPolledAccelerometer(id: chosen.id, requestedRate: configuration.rate)
                let (matrix, source, problems) = chosen.mountMatrix(override: configuration.mountMatrixOverride)
                for problem in problems { logger.warning("\(problem)") }
                sensor = opened
                candidate = chosen
                calibrator = GravityCalibrator()
                lastReason = nil
                if opened.scale == nil { logger.notice("\(chosen.id) reports no scale: learning 1 g from readings at rest") }
                logger.info("using \(chosen.id): \(reason)")
                output.yield(.opened(SensorDescription(
                    id: chosen.id, name: opened.name ?? chosen.name ?? chosen.id, location: chosen.location, mode: .polled,
                    rate: opened.rate ?? configuration.rate, mountMatrix: matrix, mountMatrixSource: source,
                    scaleSource: opened.scale == nil ? .learned : .device)))
            } catch {
                announceNoSensor("cannot open \(chosen.id): \(error)")
            }
        }
    }

    private func emit(_ unscaled: Vector3, scale: Vector3?, time: Double) {
        let value: Vector3
        if let scale {
            value = Vector3(unscaled.x * scale.x, unscaled.y * scale.y, unscaled.z * scale.z)
        } else {
            guard let factor = calibrator.scale(afterReading: unscaled.length) else { return }
            value = unscaled * factor
        }
        output.yield(.sample(AccelSample(time: time, acceleration: value)))
    }

    private func handleEvents(_ udev: UdevSession) {
        while let event = udev.nextEvent() {
            logger.debug("udev \(event.action) \(event.id)")
            if event.action == "remove", event.id == candidate?.id { close(reason: "\(event.id) was removed") }
            // An added device is picked up by the next scan, made at once while no sensor is open.
        }
    }

    private func close(reason: String) {
        logger.warning("sensor lost: \(reason)")
        sensor = nil
        candidate = nil
        failures = 0
        output.yield(.closed(reason: reason))
    }

    private func announceNoSensor(_ reason: String) {
        guard reason != lastReason else { return }
        lastReason = reason
        logger.notice("\(reason); waiting for a sensor")
        output.yield(.noSensor(reason: reason))
    }

    /// Whether `descriptor` became readable within `seconds`.
    private func waitReadable(_ descriptor: Int32, seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32((seconds * 1000).rounded(.up))) > 0
    }
}
