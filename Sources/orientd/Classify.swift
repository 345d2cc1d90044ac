import ArgumentParser
import OrientCore
import OrientTrace

extension Orientd {
    /// `orientd classify TRACE`: runs the engine over a recorded trace and prints each change as a JSON line.
    struct Classify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Classify a recorded trace, printing one JSON line per orientation change.",
            discussion: """
                Each line reads {"t":12.34,"device":"landscape-left","interface":"landscape-right"}, where t is the \
                trace time of the sample that committed the change.

                Exit status: 0 on success, 64 for bad usage, 65 for malformed trace data (the message names the \
                file and line), 66 when the trace cannot be opened, 74 when it cannot be read.

                Classifier settings (--classifier NAME=VALUE, repeatable):
                \(ClassifierSettingsHelp.text)
                """
        )

        @Argument(help: "The trace file to classify, or - for standard input.")
        var trace: String

        @OptionGroup var engine: EngineOptions

        func run() throws {
            let settings = try engine.classifierSettings()
            let tracker = try engine.tracker()
            let reader: TraceReader
            do {
                reader = try TraceReader(path: trace)
            } catch {
                throw Self.fail(error)
            }
            let matrix = try engine.mountMatrixOverride() ?? reader.metadata.mountMatrix ?? .identity
            var orientation: OrientationEngine
            do {
                orientation = try OrientationEngine(
                    mountMatrix: matrix, repairHandedness: !engine.noMountRepair, settings: settings, tracker: tracker
                )
            } catch {
                throw ValidationError(error.description)
            }
            var output = ChangePrinter()
            do {
                while let sample = try reader.next() {
                    // The trace parser already refuses non-finite values and time that does not increase, so the
                    // classifier has nothing left to refuse.
                    if let change = try? orientation.feed(sample) { output.print(change) }
                }
            } catch {
                output.flush()
                throw Self.fail(error)
            }
            output.flush()
        }

        /// Reports a trace that cannot be read, and gives the exit status for it; `plot` reports the same way.
        static func fail(_ error: TraceError) -> ExitCode {
            printError("orientd: \(error)")
            switch error.kind {
            case .cannotOpen: return ExitStatus.noInput
            case .readFailed: return ExitStatus.ioError
            case .badData: return ExitStatus.badData
            }
        }
    }
}
