import ArgumentParser
import OrientCore
import OrientConfiguration
import OrientServer
import OrientPosix
import OrientTools
import OrientTrace

extension Orientd {
    /// `orientd plot TRACE [-o FILE.svg]`: draws a trace and what the engine makes of it.
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plot a recorded trace and its classification as an SVG image.",
            discussion: """
                Draws x, y, z and their magnitude over time (m/s² in the device frame, as the classifier sees \
                them), a band for the committed device orientation and one for the interface orientation under \
                --mask, shades the stretches in which the motion gate held commits back, and marks each commit. \
                Every sample is classified; the readings are drawn from their extremes per pixel column, so a \
                trace of hours gives an image of the same size as one of a minute. Without --output the image is \
                the trace's name with .svg, in the current folder (its name is printed); it replaces the file only \
                once it is whole.

                Exit status: 0 on success, 64 for bad usage, 65 for malformed trace data (the message names the \
                file and line), 66 when the trace cannot be opened, 73 when the image cannot be created, 74 when \
                the trace cannot be read or the image cannot be written.

                A two-sensor trace (format v2) adds a band for the posture and one for tablet mode, and a panel of \
                the hinge angle θ over time, broken where it cannot be read; the interface band then shows \
                --rotate-in at work, as classify prints it.

                Classifier settings (--classifier NAME=VALUE, repeatable):
                \(SettingArguments.classifierHelp(indent: 2))
                """
        )

        @Argument(help: "The trace file to plot, or - for standard input.")
        var trace: String

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The SVG file to write (default: the trace's name with .svg, here).", valueName: "file.svg"))
        var output: String?

        @Option(help: "The image's width in pixels.")
        var width: Int = 1200

        @OptionGroup var engine: EngineOptions

        func validate() throws {
            guard (400...20000).contains(width) else { throw ValidationError("--width must be in 400...20000") }
            if trace == "-", output == nil { throw ValidationError("--output is needed for a trace read from standard input") }
        }

        /// `Traces/fold.trace` → `fold.svg`, in the current folder.
        static func defaultOutput(for trace: String) -> String {
            let name = trace.split(separator: "/").last.map(String.init) ?? trace
            let stem = name.hasSuffix(".trace") ? String(name.dropLast(".trace".count)) : name
            return stem + ".svg"
        }

        func run() throws {
            try CommandFailure.reporting { try plot(printingTo: &$0) }
        }

        /// The command's work: draws the trace into the image file, and writes the file's name to `names` when the
        /// command chose it.
        /// - Throws: ``CommandFailure`` for a trace that cannot be read or an image that cannot be written (the
        ///   file as it was); `ValidationError` for classifier settings the engine refuses (bad usage).
        func plot(printingTo names: inout some TextOutputStream) throws {
            let reader: TraceReader
            do {
                reader = try TraceReader(path: trace)
            } catch {
                throw CommandFailure(error)
            }
            var recorder = TimelineRecorder(engine: try engine.engine(for: reader), bins: TracePlot.bins(forWidth: width))
            do {
                while let sample = try reader.next() { recorder.feed(sample) }
            } catch {
                throw CommandFailure(error)
            }
            let plot = TracePlot(title: reader.name, maskDescription: engine.mask, width: width)
            let path = output ?? Self.defaultOutput(for: trace)
            do {
                try AtomicFile.write(plot.render(recorder.finished), to: path)
            } catch {
                throw CommandFailure(
                    message: "orientd: \(error)", status: error.cannotCreate ? ExitStatus.cannotCreate : ExitStatus.ioError)
            }
            if output == nil { print(path, to: &names) }
        }
    }
}
