import Logging
import OrientPosix
import OrientSampleSource

extension LiveCapture {
    /// A capture on a thread of its own, on `udev`'s accelerometers opened by `opener`, until its handle stops it:
    /// ``IIOSampleSource`` starts it on the udev hub and libiio, a test on devices and readers of its own.
    static func start(
        configuration: LiveSensorConfiguration, capture: CaptureSettings, udev: any AccelerometerDirectory,
        opener: any AccelerometerOpener, learned: LearnedGravity, logger: Logger,
        deliver: @escaping @Sendable (SensorEvent) -> Void
    ) -> CaptureHandle {
        let stop: StopFlag
        do {
            stop = try StopFlag()
        } catch {
            deliver(.noSensor(reason: "cannot read the accelerometer: \(error)"))
            let handle = CaptureHandle {}
            handle.markFinished()
            return handle
        }
        let handle = CaptureHandle { stop.set() }
        startThread(name: "orientd-capture") {
            LiveCapture(
                configuration: configuration, capture: capture, udev: udev, opener: opener, deliver: deliver, stop: stop,
                logger: logger, learned: learned
            ).run()
            handle.markFinished()
        }
        return handle
    }
}
