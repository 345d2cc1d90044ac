import Logging

/// The live accelerometer: found through libudev, read through libiio, reopened on hotplug.
///
/// Capture runs on its own thread while the stream is consumed and stops when it is cancelled. No sensor at
/// start is not fatal: the stream says `.noSensor` and waits for one to appear. Samples are buffered up to a
/// few seconds' worth; a consumer that falls further behind loses the oldest.
public struct IIOSampleSource: SampleSource {
    public let configuration: LiveSensorConfiguration
    let logger: Logger

    public init(configuration: LiveSensorConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    public func events() -> AsyncStream<SensorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SensorEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        let configuration = self.configuration
        let logger = self.logger
        startThread {
            LiveCapture(configuration: configuration, output: continuation, stop: stop, logger: logger).run()
        }
        return stream
    }
}
