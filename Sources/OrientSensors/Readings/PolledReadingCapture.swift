import Logging
import OrientSampleSource

#if canImport(Glibc)
import Glibc
import OrientPosix
#endif

/// The read loop of ``PolledReadingSource``, confined to its thread: opens the first device one of its drivers
/// offers, reads it every `interval`, and follows udev's add and remove events in the drivers' subsystems (through
/// its ``DeviceDirectory``). It waits in one `poll` on its udev subscription and the stop pipe, with a timeout only
/// while a sensor is open.
final class PolledReadingCapture {
    private let drivers: PolledReadingDrivers
    private let directory: any DeviceDirectory
    /// The interval asked for, if any, read at each schedule.
    private let settings: LiveSettings<SourceSettings>
    private let deliver: @Sendable (ReadingEvent) -> NextRead
    private let stop: StopFlag
    private let logger: Logger

    private var sensor: (id: String, driver: any PolledReadingDriver)?
    /// Set when there is nothing to open (none found, or the last one failed): wait for udev to say something.
    private var waitingForChange = false
    /// The read problem last logged, so that a sensor stuck on bad input is logged once, not at every read.
    private var lastProblem: String?
    private var lastNoSensor: String?
    /// The consumer doubts the last reading: the next is read from the sensor itself (``NextRead/fresh(within:)``).
    private var freshNext = false

    init(
        drivers: PolledReadingDrivers, directory: any DeviceDirectory, settings: LiveSettings<SourceSettings>,
        deliver: @escaping @Sendable (ReadingEvent) -> NextRead, stop: StopFlag, logger: Logger
    ) {
        self.drivers = drivers
        self.directory = directory
        self.settings = settings
        self.deliver = deliver
        self.stop = stop
        self.logger = logger
    }

    private var name: String { drivers.kind.displayName }

    func run() {
        guard let udevEvents = directory.subscribe(drivers.subsystems) else {
            _ = deliver(.noSensor(reason: "cannot watch for a \(name): no pipe for udev's events"))
            return
        }
        defer { directory.unsubscribe(udevEvents) }
        var nextRead = 0.0
        while !stop.isSet {
            if sensor == nil, !waitingForChange {
                open()
                nextRead = monotonicSeconds()
            }
            var timeout: Double?
            if let open = sensor {
                let now = monotonicSeconds()
                if now >= nextRead {
                    let wanted = read(open)
                    let interval = interval(of: open.driver)
                    nextRead += interval
                    // After a stall, carry on from now rather than reading in a burst.
                    if nextRead < now { nextRead = now + interval }
                    switch wanted {
                    case .onSchedule: break
                    case .within(let seconds), .fresh(let seconds): nextRead = min(nextRead, now + max(0, seconds))
                    }
                    if case .fresh = wanted { freshNext = true }
                }
                if sensor != nil { timeout = max(0, nextRead - monotonicSeconds()) }
            }
            if wait(udevEvents.descriptor, seconds: timeout) { handleEvents(udevEvents.take()) }
        }
    }

    /// Seconds between two reads of `driver`'s sensor: the settings' when they say, else the driver's own.
    private func interval(of driver: any PolledReadingDriver) -> Double {
        settings.current.interval ?? driver.interval
    }

    private func open() {
        let devices = directory.deviceFacts(in: drivers.subsystems) ?? []
        guard let offered = drivers.firstOffered(in: devices) else {
            announceNoSensor("no \(name) found")
            return
        }
        let device = offered.device
        var failures: [String] = []
        for (driver, foundBy) in offered.offers {
            do {
                let opened = try driver.init(device: device, logger: logger)
                sensor = (device.id, opened)
                lastProblem = nil
                lastNoSensor = nil
                var description = ReadingSensorDescription(
                    kind: driver.kind, id: device.id, name: device.name ?? device.id, interval: interval(of: opened),
                    foundBy: foundBy)
                opened.describe(&description)
                for failure in failures { logger.notice("\(name) \(device.id): \(failure); read otherwise") }
                logger.info("\(name) \(description.displayName): found by \(foundBy); read every \(description.interval) s")
                _ = deliver(.opened(description))
                return
            } catch {
                failures.append("\(error)")
            }
        }
        announceNoSensor("cannot open the \(name) \(device.id): \(failures.joined(separator: "; "))")
    }

    /// Reads the sensor once; returns when its consumer wants the next reading.
    private func read(_ open: (id: String, driver: any PolledReadingDriver)) -> NextRead {
        defer { for what in open.driver.takeIncidents() { _ = deliver(.incident(what)) } }
        do {
            let fresh = freshNext
            freshNext = false
            guard let reading = try fresh ? open.driver.readFresh() : open.driver.read() else { return .onSchedule }
            if lastProblem != nil {
                logger.notice("\(name) \(open.id) reads again")
                _ = deliver(.incident("\(name) \(open.id) reads again"))
                lastProblem = nil
            }
            return deliver(.reading(reading))
        } catch where error.deviceIsGone {
            close(reason: "\(error)")
        } catch {
            // Bad input (a value that is not a number, a read that fails): said once, the last level stays.
            let problem = "\(error)"
            guard problem != lastProblem else { return .onSchedule }
            lastProblem = problem
            logger.warning("\(name) \(open.id): \(problem); the last reading stays until a read succeeds")
            _ = deliver(.incident("\(name) \(open.id): \(problem)"))
        }
        return .onSchedule
    }

    private func handleEvents(_ events: [UdevEvent]) {
        for event in events {
            logger.debug("udev \(event.action) \(event.id)")
            if event.action == "remove", event.id == sensor?.id { close(reason: "\(event.id) was removed") }
            waitingForChange = false
        }
    }

    private func close(reason: String) {
        logger.warning("\(name) lost: \(reason)")
        sensor = nil
        lastNoSensor = nil
        // Reopened when udev says something changed: a device that lost its files must not be retried in a loop.
        waitingForChange = true
        _ = deliver(.lost(reason: reason))
    }

    private func announceNoSensor(_ reason: String) {
        waitingForChange = true
        guard reason != lastNoSensor else { return }
        lastNoSensor = reason
        logger.info("\(reason); waiting for one")
        _ = deliver(.noSensor(reason: reason))
    }

    /// Whether udev's events became readable within `seconds` (nil: no timeout); a stop returns false at once.
    private func wait(_ monitor: Int32, seconds: Double?) -> Bool {
        var entries = [
            pollfd(fd: monitor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let timeout = seconds.map { Int32(($0 * 1000).rounded(.up)) } ?? -1
        guard poll(&entries, 2, timeout) > 0 else { return false }
        if entries[1].revents != 0 { return false }
        return entries[0].revents != 0
    }
}
