import Logging

extension IIOSampleSource {
    /// Whether the accelerometer this source would open is present, now and after every udev add or remove,
    /// without opening it. A thread blocks on the udev monitor until something changes: no idle wakeups.
    public func presence() -> AsyncStream<Bool> {
        let configured = configuration.device
        let logger = self.logger
        return UdevSession.changes(of: ["iio"], thread: "orientd-udev") { error in
            logger.warning("cannot watch for sensors coming and going: \(error)")
            return false
        } observe: { session, events in
            // A device announced as removed is gone, even if its sysfs folder lingers a moment.
            var removed: Set<String> = []
            for event in events {
                if event.action == "remove" { removed.insert(event.id) } else { removed.remove(event.id) }
            }
            let candidates = session.accelerometers().filter { !removed.contains($0.id) }
            if case .chosen = SensorSelection.choose(from: candidates, configured: configured) { return true }
            return false
        }
    }
}
