import ArgumentParser
import OrientCore
import OrientConfiguration
import OrientServer
import OrientTrace

extension Orientd {
    /// `orientd classify TRACE`: runs the engine over a recorded trace and prints each change as a JSON line.
    struct Classify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Classify a recorded trace, printing one JSON line per change of orientation (or posture).",
            discussion: """
                Each line reads {"t":12.34,"device":"landscape-left","interface":"landscape-right","rotation":270}, \
                where t is the trace time of the sample that committed the change and rotation how far, in degrees \
                counter-clockwise, a compositor turns the picture on the panel to show that interface upright. \
                Names and rotation follow the panel's natural orientation: the trace's natural-orientation line, \
                else portrait, unless --natural-orientation says otherwise.

                A two-sensor trace (format v2, with the keyboard base's columns bx, by, bz) also gives the hinge \
                angle and the posture, and by default (--rotate-in tablet-mode) holds the interface upright for \
                the keyboard out of tablet mode. A sample that changes them gets one line holding those of \
                "posture" (unknown, closed, laptop, flat, tent, stand, tablet), "tablet-mode" (true or false) \
                and "hinge-angle" (whole degrees, 0 to 360) that changed, after "device" and "interface" when the \
                same sample changed them: {"t":2.54,"posture":"tent","hinge-angle":216}. null means it became \
                unknown. The base sensor's mount matrix is the trace's base-mount-matrix or \
                --base-mount-matrix; --no-mount-repair applies to both matrices.

                Exit status: 0 on success, 64 for bad usage, 65 for malformed trace data (the message names the \
                file and line), 66 when the trace cannot be opened, 74 when it cannot be read.

                Classifier settings (--classifier NAME=VALUE, repeatable):
                \(SettingArguments.classifierHelp(indent: 2))
                """
        )

        @Argument(help: "The trace file to classify, or - for standard input.")
        var trace: String

        @OptionGroup var engine: EngineOptions

        func run() throws {
            try CommandFailure.reporting { try classify(to: &$0) }
        }

        /// The command's work: the trace's changes, one JSON line each, to `output`.
        /// - Throws: ``CommandFailure`` for a trace that cannot be read, after writing the lines before the fault;
        ///   `ValidationError` for classifier settings the engine refuses (bad usage).
        func classify(to output: inout some TextOutputStream) throws {
            let reader: TraceReader
            do {
                reader = try TraceReader(path: trace)
            } catch {
                throw CommandFailure(error)
            }
            var convertible = try engine.engine(for: reader)
            var printer = ChangePrinter(natural: convertible.orientation.natural)
            do {
                while let sample = try reader.next() {
                    // The trace parser already refuses non-finite values and time that does not increase, so the
                    // engine has nothing left to refuse.
                    if let update = try? convertible.feed(sample) { printer.print(update, to: &output) }
                }
            } catch {
                printer.flush(to: &output)
                throw CommandFailure(error)
            }
            printer.flush(to: &output)
        }
    }
}
