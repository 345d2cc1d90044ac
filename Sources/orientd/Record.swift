import ArgumentParser
import Logging
import OrientCore
import OrientSampleSource
import OrientSensors
import OrientTools

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
                Where the sensor comes with a kernel hinge sensor, its angle is recorded last on each line (v3). \
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

        @Option(
            help: ArgumentHelp(
                "The panel as installed, written into the trace: auto finds the internal panel.",
                valueName: "auto|portrait|landscape"))
        var naturalOrientation: NaturalOrientationSetting = .auto

        func validate() throws {
            if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
            guard rate > 0, rate <= 1000 else { throw ValidationError("--rate must be in 0 < rate <= 1000") }
        }

        func run() async throws {
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: .notice) }
            let logger = Logger(label: "orientd record")
            let udev = UdevHub()
            let source = IIOSampleSource(
                configuration: LiveSensorConfiguration(device: device, readsBase: !displayOnly), udev: udev,
                logger: logger)
            // Ctrl-C or SIGTERM ends the recording between two samples, as --duration does: what was read is in the
            // file, and the summary follows. (Without a subscriber, ProcessSignals would end the process at once.)
            let stop = ProcessSignals.stream()
            let panel = PanelDiscovery.resolve(naturalOrientation, udev: udev)
            printError("natural orientation: \(panel.description)")
            let (output, duration, rate) = (output, duration, rate)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in stop { return } }
                group.addTask {
                    let recording = TraceRecording(output: output, duration: duration, natural: panel.natural) { printError($0) }
                    try await Self.record(recording, from: source.events(CaptureSettings(rate: rate)))
                }
                // The first to end, the recording or a signal, ends the other.
                try await group.next()
                group.cancelAll()
            }
        }

        /// Writes the events to the trace until it is complete or the stream ends (a stop signal cancels it), then
        /// says what was recorded.
        private static func record(_ recording: TraceRecording, from events: AsyncStream<SensorEvent>) async throws {
            var recording = recording
            reading: for await event in events {
                switch recording.handle(event) {
                case .next: continue
                case .finished: break reading
                case .failed(let status, let message):
                    printError("orientd: \(message)")
                    throw ExitCode(status)
                }
            }
            printError(recording.summary)
        }
    }
}

extension NaturalOrientationSetting: ExpressibleByArgument {}
