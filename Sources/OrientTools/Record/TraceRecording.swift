import OrientCore
import OrientSampleSource
import OrientSensors
import OrientTrace

/// What `orientd record` does with each event of the live source: the trace is created at the first description
/// (its columns fixed then), every sample written through, and the recording ends after the duration, when the
/// sensor goes away, or on a fault.
package struct TraceRecording {
    /// What the command does after an event.
    package enum Step: Equatable {
        case next
        /// Done: print ``summary``.
        case finished
        /// Stop with this exit status; the message says why.
        case failed(status: Int32, message: String)
    }

    package let output: String
    package let duration: Double?
    /// The panel's natural orientation, written into the trace so that replaying it names the poses alike.
    package let natural: NaturalOrientation?
    package private(set) var written = 0
    /// Samples a v2 trace had no base reading for (its scale still being learned, or the sensor gone).
    package private(set) var withoutBase = 0
    private var writer: TraceWriter?
    private var start: Double?
    /// Says what happens, for a person (standard error).
    private let say: (String) -> Void

    package init(output: String, duration: Double?, natural: NaturalOrientation? = nil, say: @escaping (String) -> Void) {
        self.output = output
        self.duration = duration
        self.natural = natural
        self.say = say
    }

    package mutating func handle(_ event: SensorEvent) -> Step {
        switch event {
        case .opened(let description):
            // A base sensor plugged in later reopens the description; the columns are fixed by then.
            guard writer == nil else { return .next }
            do {
                writer = try TraceWriter(path: output, metadata: Self.metadata(description, natural: natural))
            } catch {
                return .failed(status: 73, message: "\(error)")
            }
            let base = description.base.map { " and the base sensor \($0.id) (\($0.name))" } ?? ""
            say("recording \(description.id) (\(description.name))\(base) to \(output); Ctrl-C stops")
        case .sample(let sample):
            guard let writer else { return .next }
            do {
                if try writer.append(sample) {
                    written += 1
                } else if writer.columns == .displayAndBase, sample.base == nil {
                    withoutBase += 1
                }
            } catch {
                return .failed(status: 74, message: "\(error)")
            }
            if start == nil { start = sample.time }
            if let duration, let start, sample.time - start >= duration { return .finished }
        case .gravityLearned, .baseGravityLearned:
            break  // the live source has logged it (on standard error), and corrects the samples that follow
        case .lid:
            break  // traces hold the accelerometers' readings only
        case .baseLost(let reason):
            let skipped = writer?.columns == .displayAndBase ? "; nothing is written until it is back" : ""
            say("orientd: the base sensor went away: \(reason)\(skipped)")
        case .hingeLost(let reason):
            say("orientd: the hinge sensor went away: \(reason)")
        case .lost(let reason):
            say("orientd: the sensor went away: \(reason)")
            if writer != nil { return .finished }
        case .noSensor(let reason):
            return .failed(status: 66, message: reason)
        case .incident:
            break  // the live source has logged it
        case .sourceEnded:
            break
        }
        return .next
    }

    package var summary: String {
        let skipped = withoutBase > 0 ? " (\(withoutBase) display readings without a base reading left out)" : ""
        return "wrote \(written) samples to \(output)\(skipped)"
    }

    /// The sensor's matrix, name and location, and the panel's natural orientation; with a base sensor, its
    /// matrix (which makes the trace v2) and name too.
    package static func metadata(_ description: SensorDescription, natural: NaturalOrientation?) -> TraceMetadata {
        var metadata = TraceMetadata(
            mountMatrix: description.mountMatrix, baseMountMatrix: description.base?.mountMatrix,
            source: "\(description.id) \(description.name)", naturalOrientation: natural)
        metadata.entries.append(.init(key: "mount-matrix-source", value: description.mountMatrixSource.description))
        metadata.entries.append(.init(key: "location", value: description.location.rawValue))
        if let base = description.base {
            metadata.entries.append(.init(key: "base-source", value: "\(base.id) \(base.name)"))
            metadata.entries.append(.init(key: "base-mount-matrix-source", value: base.mountMatrixSource.description))
        }
        return metadata
    }
}
