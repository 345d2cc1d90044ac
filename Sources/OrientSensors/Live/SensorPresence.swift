import Logging

#if canImport(Glibc)
import Glibc
import OrientPosix
import OrientSampleSource
#endif

extension IIOSampleSource {
    /// Whether the accelerometer this source would open is present, now and after every udev add or remove,
    /// without opening it. A thread blocks on the udev monitor until something changes: no idle wakeups.
    public func presence() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(1))
        let stop: WakeupPipe
        let udev: UdevSession
        let monitor: Int32
        do {
            stop = try WakeupPipe()
            udev = try UdevSession()
            monitor = try udev.monitorDescriptor()
        } catch {
            logger.warning("cannot watch for sensors coming and going: \(error)")
            continuation.yield(false)
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in stop.signal() }
        let configured = configuration.device
        nonisolated(unsafe) let session = udev
        startThread(name: "orientd-udev") {
            var last: Bool?
            var removed: Set<String> = []
            while true {
                // A device announced as removed is gone, even if its sysfs folder lingers a moment.
                let candidates = session.accelerometers().filter { !removed.contains($0.id) }
                let choice = SensorSelection.choose(from: candidates, configured: configured)
                let present = if case .chosen = choice { true } else { false }
                if present != last {
                    continuation.yield(present)
                    last = present
                }
                removed = []
                let going = session.waitForEvents(monitor: monitor, stop: stop.readDescriptor) { event in
                    if event.action == "remove" { removed.insert(event.id) } else { removed.remove(event.id) }
                }
                guard going else { break }
            }
            continuation.finish()
        }
        return stream
    }
}
