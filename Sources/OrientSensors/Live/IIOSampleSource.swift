import Logging
import OrientSampleSource

/// The live accelerometer: found through libudev, read through libiio, reopened on hotplug.
///
/// Capture runs on its own thread, which also runs what the consumer does with each event. No sensor at start
/// is not fatal: capture says `.noSensor` and waits for one to appear.
public struct IIOSampleSource: SampleSource {
    public let configuration: LiveSensorConfiguration
    /// Where the sensors are found and followed.
    let udev: UdevHub
    let logger: Logger
    /// 1 g learned per sensor, kept across captures: an on-demand daemon opens the sensor for every client, and
    /// learning again each time would delay each first orientation by a second and repeat the warning.
    private let learned = LearnedGravity()

    public init(configuration: LiveSensorConfiguration, udev: UdevHub, logger: Logger) {
        self.configuration = configuration
        self.udev = udev
        self.logger = logger
    }

    /// Reads at the rates `settings` give as it starts: a reload that changes them starts the capture again.
    public func start(_ settings: LiveSettings<CaptureSettings>, _ deliver: @escaping @Sendable (SensorEvent) -> NextRead)
        -> CaptureHandle
    {
        let capture = settings.current
        return LiveCapture.start(
            configuration: configuration, capture: capture, udev: udev,
            opener: AccelerometerOpening(capture: capture, logger: logger), learned: learned, logger: logger
        ) { _ = deliver($0) }
    }
}
