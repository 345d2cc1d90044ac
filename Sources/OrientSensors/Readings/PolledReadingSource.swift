import Logging
import OrientPosix
import OrientSampleSource

/// A polled sysfs sensor of one kind, read by its driver (``IIOPolledLight``): found through udev, read on a
/// thread of its own between `start` and the handle's `stop`, and followed through hot-plug meanwhile. No thread
/// exists while it is closed, and with no sensor present its thread waits on udev without waking.
public struct PolledReadingSource: ReadingSource {
    private let driver: any PolledReadingDriver.Type
    private let logger: Logger

    init(_ driver: any PolledReadingDriver.Type, logger: Logger) {
        self.driver = driver
        self.logger = logger
    }

    public var kind: SensorKind { driver.kind }

    public func start(_ deliver: @escaping @Sendable (ReadingEvent) -> Void) -> CaptureHandle {
        start(paced: { deliver($0); return .onSchedule })
    }

    public func start(paced deliver: @escaping @Sendable (ReadingEvent) -> NextRead) -> CaptureHandle {
        let stop = StopFlag()
        let wakeup: WakeupPipe
        do {
            wakeup = try WakeupPipe()
        } catch {
            let handle = CaptureHandle {}
            _ = deliver(.noSensor(reason: "cannot read the \(kind.displayName): \(error)"))
            handle.markFinished()
            return handle
        }
        let handle = CaptureHandle {
            stop.set()
            wakeup.signal()
        }
        let (driver, logger) = (self.driver, self.logger)
        startThread(name: "orientd-\(kind.rawValue)") {
            PolledReadingCapture(driver: driver, deliver: deliver, stop: stop, wakeup: wakeup, logger: logger).run()
            handle.markFinished()
        }
        return handle
    }

    public func presence() -> AsyncStream<Bool> {
        let (driver, logger) = (self.driver, self.logger)
        return UdevSession.changes(of: "iio", thread: "orientd-udev") { error in
            logger.warning("cannot watch for a \(driver.kind.displayName) coming and going: \(error)")
            return false
        } observe: { session, events in
            // A device announced as removed is gone, even if its sysfs folder lingers a moment.
            var removed: Set<String> = []
            for event in events {
                if event.action == "remove" { removed.insert(event.id) } else { removed.remove(event.id) }
            }
            return session.iioDeviceFacts().contains { !removed.contains($0.id) && driver.match($0) != nil }
        }
    }
}

/// Every one-value sensor the daemon can serve, one source per kind. A new kind is its driver and a line here.
public enum ReadingSources {
    public static func all(logger: Logger) -> [any ReadingSource] {
        [PolledReadingSource(IIOPolledLight.self, logger: logger)]
    }
}
