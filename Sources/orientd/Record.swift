import ArgumentParser
import Logging
import OrientCore
import OrientSensors
import OrientTrace

#if canImport(Glibc)
import Glibc
#endif

extension Orientd {
    /// `orientd record`: writes a trace from the live sensor, for bug reports and new test scenarios.
    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record the live accelerometer to a trace file (stop with Ctrl-C or --duration).",
            discussion: """
                The trace carries the sensor's mount matrix and name as metadata, and each sample is written \
                through to the file at once, so an interrupted recording is still a valid trace. Stop the \
                orientd service first if the sensor cannot be shared. Exit status: 0 after recording, 66 when no \
                sensor was found, 73 when the file cannot be written.
                """
        )

        @Option(name: .shortAndLong, help: "The trace file to write.")
        var output: String

        @Option(help: "Stop after this many seconds.")
        var duration: Double?

        @Option(help: "The accelerometer: a driver name, an id such as iio:device0, or a sysfs path.")
        var device: String?

        @Option(help: "Samples per second.")
        var rate: Double = 50

        func validate() throws {
            if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
            guard rate > 0, rate <= 1000 else { throw ValidationError("--rate must be in 0 < rate <= 1000") }
        }

        func run() async throws {
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: .notice) }
            let logger = Logger(label: "orientd record")
            let source = IIOSampleSource(configuration: LiveSensorConfiguration(device: device, rate: rate), logger: logger)
            let stop = StopSignal()
            var writer: TraceWriter?
            var written = 0
            var start: Double?
            for await event in source.events() {
                if stop.requested { break }
                switch event {
                case .opened(let description):
                    guard writer == nil else { continue }
                    var metadata = TraceMetadata(
                        mountMatrix: description.mountMatrix, source: "\(description.id) \(description.name)")
                    metadata.entries.append(.init(key: "mount-matrix-source", value: description.mountMatrixSource.description))
                    metadata.entries.append(.init(key: "location", value: description.location.rawValue))
                    do {
                        writer = try TraceWriter(path: output, metadata: metadata)
                    } catch {
                        printError("orientd: \(error)")
                        throw ExitCode(73)
                    }
                    printError("recording \(description.id) (\(description.name)) to \(output); Ctrl-C stops")
                case .sample(let sample):
                    guard let writer else { continue }
                    do {
                        if try writer.append(sample) { written += 1 }
                    } catch {
                        printError("orientd: \(error)")
                        throw ExitCode(74)
                    }
                    if start == nil { start = sample.time }
                    if let duration, let start, sample.time - start >= duration { return report(written) }
                case .gravityLearned:
                    break  // the live source has logged it (on standard error), and corrects the samples that follow
                case .baseLost(let reason):
                    printError("orientd: the base sensor went away: \(reason)")
                case .closed(let reason):
                    printError("orientd: the sensor went away: \(reason)")
                    if writer != nil { return report(written) }
                case .noSensor(let reason):
                    printError("orientd: \(reason)")
                    throw ExitStatus.noInput
                case .ended:
                    break
                }
            }
            report(written)
        }

        private func report(_ written: Int) {
            printError("wrote \(written) samples to \(output)")
        }
    }
}

/// Turns SIGINT and SIGTERM into a flag the recording loop checks, so that it stops between samples.
final class StopSignal: Sendable {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    init() {
        signal(SIGINT) { _ in StopSignal.flag = 1 }
        signal(SIGTERM) { _ in StopSignal.flag = 1 }
    }

    var requested: Bool { Self.flag != 0 }
}
