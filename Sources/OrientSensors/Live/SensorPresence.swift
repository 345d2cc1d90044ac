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
        } observe: { session, _ in
            // The session leaves a device announced as removed out of its enumerations until it is added again.
            if case .chosen = SensorSelection.choose(from: session.accelerometers(), configured: configured) { return true }
            return false
        }
    }
}
