import Logging
import OrientSampleSource
import OrientSensors
import OrientServer

/// Which sample source `orientd run` reads: a replayed trace, or the live sensor.
enum SourceChoice {
    static func make(options: RunOptions, configuration: DaemonConfiguration, logger: Logger) throws -> any SampleSource {
        if let replay = options.replay {
            do {
                return try ReplaySource(
                    path: replay, speed: ReplaySource.Speed(options.speed) ?? .factor(1), loop: options.loop,
                    mountMatrixOverride: configuration.engine.mountMatrix)
            } catch {
                throw ServerError("\(error)")
            }
        }
        return IIOSampleSource(
            configuration: LiveSensorConfiguration(
                device: configuration.device, mountMatrixOverride: configuration.engine.mountMatrix, rate: configuration.rate,
                stillRate: configuration.stillRate),
            logger: logger)
    }
}
