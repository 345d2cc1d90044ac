import Logging
import NIOCore
import NIOPosix
import OrientSampleSource
import OrientSensors
import OrientServer

/// Which sample source `orientd run` reads: a replayed trace, or the live sensor (`device`, or the display's).
enum SourceChoice {
    static func make(options: RunOptions, device: String?, udev: UdevHub, logger: Logger) throws -> any SampleSource {
        if let replay = options.replay {
            do {
                // Paced on an event loop of the group that runs Swift concurrency's tasks (main.swift), so
                // that no libdispatch thread starts (ReplaySource.Sleep).
                let loop = MultiThreadedEventLoopGroup.singleton.any()
                return try ReplaySource(
                    path: replay, speed: ReplaySource.Speed(options.speed) ?? .factor(1), loop: options.loop,
                    sleep: { try await loop.sleep(for: $0) })
            } catch {
                // As classify and plot answer the same trace: 66 when it cannot be opened, 65 for bad data.
                logger.error("\(error)")
                throw CommandFailure(error).status
            }
        }
        return IIOSampleSource(configuration: LiveSensorConfiguration(device: device), udev: udev, logger: logger)
    }
}
