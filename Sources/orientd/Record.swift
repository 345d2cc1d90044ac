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
                through to the file at once, so an interrupted recording is still a valid trace. On a convertible \
                the keyboard base's sensor is recorded too, each display reading beside the base reading taken \
                with it (a v2 trace, with the base's mount matrix); --display-only records the display alone (v1). \
                Stop the orientd service first if the sensor cannot be shared. Exit status: 0 after recording, 66 \
                when no sensor was found, 73 when the file cannot be written.
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

        @Flag(help: "Record the display sensor alone (a v1 trace), even on a convertible with a base sensor.")
        var displayOnly = false

        func validate() throws {
            if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
            guard rate > 0, rate <= 1000 else { throw ValidationError("--rate must be in 0 < rate <= 1000") }
        }

        func run() async throws {
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: .notice) }
            let logger = Logger(label: "orientd record")
            let source = IIOSampleSource(
                configuration: LiveSensorConfiguration(device: device, rate: rate, readsBase: !displayOnly), logger: logger)
            let stop = StopSignal()
            var writer: TraceWriter?
            var written = 0
            /// Samples a v2 trace had no base reading for (its scale still being learned, or the sensor gone).
            var withoutBase = 0
            var start: Double?
            for await event in source.events() {
                if stop.requested { break }
                switch event {
                case .opened(let description):
                    // A base sensor plugged in later reopens the description; the columns are fixed by then.
                    guard writer == nil else { continue }
                    do {
                        writer = try TraceWriter(path: output, metadata: Self.metadata(description))
                    } catch {
                        printError("orientd: \(error)")
                        throw ExitCode(73)
                    }
                    let base = description.base.map { " and the base sensor \($0.id) (\($0.name))" } ?? ""
                    printError("recording \(description.id) (\(description.name))\(base) to \(output); Ctrl-C stops")
                case .sample(let sample):
                    guard let writer else { continue }
                    do {
                        if try writer.append(sample) {
                            written += 1
                        } else if writer.columns == .displayAndBase, sample.base == nil {
                            withoutBase += 1
                        }
                    } catch {
                        printError("orientd: \(error)")
                        throw ExitCode(74)
                    }
                    if start == nil { start = sample.time }
                    if let duration, let start, sample.time - start >= duration { return report(written, withoutBase: withoutBase) }
                case .gravityLearned, .baseGravityLearned:
                    break  // the live source has logged it (on standard error), and corrects the samples that follow
                case .lid:
                    break  // traces hold the accelerometers' readings only
                case .baseLost(let reason):
                    let skipped = writer?.columns == .displayAndBase ? "; nothing is written until it is back" : ""
                    printError("orientd: the base sensor went away: \(reason)\(skipped)")
                case .closed(let reason):
                    printError("orientd: the sensor went away: \(reason)")
                    if writer != nil { return report(written, withoutBase: withoutBase) }
                case .noSensor(let reason):
                    printError("orientd: \(reason)")
                    throw ExitStatus.noInput
                case .ended:
                    break
                }
            }
            report(written, withoutBase: withoutBase)
        }

        private func report(_ written: Int, withoutBase: Int) {
            let skipped = withoutBase > 0 ? " (\(withoutBase) display readings without a base reading left out)" : ""
            printError("wrote \(written) samples to \(output)\(skipped)")
        }

        /// The sensor's matrix, name and location; with a base sensor, its matrix (which makes the trace v2) and
        /// name too.
        static func metadata(_ description: SensorDescription) -> TraceMetadata {
            var metadata = TraceMetadata(
                mountMatrix: description.mountMatrix, baseMountMatrix: description.base?.mountMatrix,
                source: "\(description.id) \(description.name)")
            metadata.entries.append(.init(key: "mount-matrix-source", value: description.mountMatrixSource.description))
            metadata.entries.append(.init(key: "location", value: description.location.rawValue))
            if let base = description.base {
                metadata.entries.append(.init(key: "base-source", value: "\(base.id) \(base.name)"))
                metadata.entries.append(.init(key: "base-mount-matrix-source", value: base.mountMatrixSource.description))
            }
            return metadata
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
