import OrientSensors

/// The accelerometers a session calibrates, chosen as the daemon chooses them unless named.
struct CalibrationSensors {
    var display: AccelerometerCandidate
    /// A convertible's keyboard-base sensor; `nil` on a tablet.
    var base: AccelerometerCandidate?

    static func find(_ request: CalibrateRequest, udev: UdevHub) throws(CalibrateFailure) -> CalibrationSensors {
        let candidates: [AccelerometerCandidate]
        do {
            candidates = try IIODiscovery.devices(udev: udev).compactMap(\.accelerometer)
        } catch {
            throw .noSensor("cannot list IIO devices: \(error)")
        }
        let display: AccelerometerCandidate
        switch SensorSelection.choose(from: candidates, configured: request.device) {
        case .chosen(let chosen, _): display = chosen
        case .none(let reason): throw .noSensor(reason)
        }
        guard let name = request.baseDevice else {
            return CalibrationSensors(display: display, base: SensorSelection.base(from: candidates, display: display))
        }
        // Named, a base sensor need not say it is one: saying so (ACCEL_LOCATION=base) is part of what is written.
        guard case .chosen(let base, _) = SensorSelection.choose(from: candidates, configured: name) else {
            throw .noSensor("no accelerometer matches the base device \(name)")
        }
        guard base.id != display.id else { throw .noSensor("--base-device names the display sensor \(display.id)") }
        return CalibrationSensors(display: display, base: base)
    }

    /// The hwdb match line of each sensor, from its parent's modalias (`parentModalias`, by sysfs path) and the
    /// machine's DMI modalias (`dmi`, `nil` when the kernel has none).
    func matches(dmi: String?, parentModalias: (String) -> String?) throws(HwdbMatchError)
        -> (display: HwdbMatch, base: HwdbMatch?)
    {
        guard let dmi else {
            throw HwdbMatchError(description: "the kernel gives no DMI modalias (/sys/class/dmi/id/modalias)")
        }
        func match(_ sensor: AccelerometerCandidate) throws(HwdbMatchError) -> HwdbMatch {
            guard let parent = parentModalias(sensor.path) else {
                throw HwdbMatchError(
                    description: "\(sensor.id) has no parent device on the usb, i2c or platform bus with a modalias")
            }
            return try HwdbMatch(parentModalias: parent, dmiModalias: dmi)
        }
        return (try match(display), try base.map { sensor throws(HwdbMatchError) in try match(sensor) })
    }
}
