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
    /// Samples a trace with the base's columns had no base reading for (its scale still being learned, or the
    /// sensor gone).
    package private(set) var withoutBase = 0
    /// Samples a trace with the hinge's column had no hinge angle for (the hinge sensor gone).
    package private(set) var withoutHinge = 0
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
                writer = try TraceWriter(
                    path: output, metadata: Self.metadata(description, natural: natural),
                    columns: Self.columns(description))
            } catch {
                return .failed(status: 73, message: "\(error)")
            }
            let base = description.base.map { " and the base sensor \($0.id) (\($0.name))" } ?? ""
            let hinge = description.hinge.map { " and the hinge sensor \($0.displayName)" } ?? ""
            say("recording \(description.id) (\(description.name))\(base)\(hinge) to \(output); Ctrl-C stops")
        case .sample(let sample):
            guard let writer else { return .next }
            do {
                if try writer.append(sample) {
                    written += 1
                } else if writer.columns.hasBase, sample.base == nil {
                    withoutBase += 1
                } else if writer.columns.hasHinge, sample.hinge == nil {
                    withoutHinge += 1
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
            let skipped = writer?.columns.hasBase == true ? "; nothing is written until it is back" : ""
            say("orientd: the base sensor went away: \(reason)\(skipped)")
        case .hingeLost(let reason):
            let skipped = writer?.columns.hasHinge == true ? "; nothing is written until it is back" : ""
            say("orientd: the hinge sensor went away: \(reason)\(skipped)")
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
        var skipped: [String] = []
        if withoutBase > 0 { skipped.append("\(withoutBase) display readings without a base reading") }
        if withoutHinge > 0 { skipped.append("\(withoutHinge) display readings without a hinge angle") }
        let left = skipped.isEmpty ? "" : " (\(skipped.joined(separator: " and ")) left out)"
        return "wrote \(written) samples to \(output)\(left)"
    }

    /// The columns for what the sensor reads beside the display: the base's when it has a base sensor (v2), and
    /// the hinge's when it has a kernel hinge sensor (v3).
    package static func columns(_ description: SensorDescription) -> TraceColumns {
        TraceColumns(base: description.base != nil, hinge: description.hinge != nil)
    }

    /// The sensor's matrix, name and location, and the panel's natural orientation; with a base sensor, its
    /// matrix (which makes the trace v2) and name too; with a hinge sensor, its name.
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
        if let hinge = description.hinge {
            metadata.entries.append(.init(key: "hinge-source", value: "\(hinge.id) \(hinge.name)"))
        }
        return metadata
    }
}
