import Logging

extension IIOSampleSource {
    /// Whether the accelerometer this source would open is present, now and after every udev add or remove,
    /// without opening it. The udev hub's thread looks, woken only by udev: no idle wakeups.
    public func presence() -> AsyncStream<Bool> {
        let configured = configuration.device
        let logger = self.logger
        let setup = FoundSensorSetup(logger: logger)
        return udev.changes(of: UdevSession.accelerometerSubsystems) { error in
            logger.warning("cannot watch for sensors coming and going: \(error)")
            return false
        } observe: { session, events in
            setup.forget(Set(events.filter { $0.action == "remove" }.map(\.id)))
            // The session leaves a device announced as removed out of its enumerations until it is added again.
            guard case .chosen(let chosen, _) = SensorSelection.choose(from: session.accelerometers(), configured: configured)
            else { return false }
            // As iio-sensor-proxy does when it finds an accelerometer: at least 10 Hz until a client asks for more, and
            // the scan elements of one read through its buffer enabled.
            if let facts = session.iioDeviceFacts().first(where: { $0.id == chosen.id }) {
                setup.fix(facts, bufferOnly: chosen.bufferOnly)
            }
            return true
        }
    }
}
