import OrientSampleSource
import OrientSensors

/// What a session reads of the machine: the sensors it calibrates, what their hwdb match lines are built from, a
/// source for each, and the lines typed on a terminal. The command's are live (udev, sysfs, libiio, standard input);
/// a test scripts them, so that a whole session runs in its process.
struct CalibrationMachine<Source: SampleSource> {
    var sensors: CalibrationSensors
    /// The machine's DMI modalias (``SensorModalias/dmi()``); `nil` when the kernel has none.
    var dmiModalias: String?
    /// The modalias of a sensor's parent device, by the sensor's sysfs path (``SensorModalias/parent(ofSysfsPath:)``).
    var parentModalias: (_ sysfsPath: String) -> String?
    var display: Source
    /// The base sensor's source, for a convertible.
    var base: Source?
    /// Calls its argument for each line typed, from then on; called only when Enter takes a pose.
    var readLines: (_ line: @escaping @Sendable () -> Void) -> Void
}

extension CalibrationMachine<IIOSampleSource> {
    /// The machine as udev and sysfs show it, its sensors read through libiio, Enter read from standard input.
    static func live(_ request: CalibrateRequest, udev: UdevHub, environment: CalibrateEnvironment)
        throws(CalibrateFailure) -> Self
    {
        let sensors = try CalibrationSensors.find(request, udev: udev)
        func source(_ sensor: AccelerometerCandidate) -> IIOSampleSource {
            IIOSampleSource(
                configuration: LiveSensorConfiguration(device: sensor.id, readsBase: false), udev: udev,
                logger: environment.logger)
        }
        return CalibrationMachine(
            sensors: sensors, dmiModalias: SensorModalias.dmi(), parentModalias: SensorModalias.parent(ofSysfsPath:),
            display: source(sensors.display), base: sensors.base.map(source),
            readLines: CalibrationInput.readStandardInput)
    }
}
