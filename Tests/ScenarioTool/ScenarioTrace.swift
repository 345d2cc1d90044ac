import ArgumentParser
import OrientCore
import OrientScenarios
import OrientTrace

/// `scenario-trace`: writes a synthesised trace to standard output, for demos and benchmarks.
/// A development tool: it lives beside the tests and is not installed.
@main
struct ScenarioTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario-trace",
        abstract: "Write a synthesised accelerometer trace (a person turning a tablet) to standard output.",
        discussion: "With --convertible, one scenario of the convertible suite instead, with both sensors (trace v2)."
    )

    @Option(help: "Samples per second.")
    var rate: Double = 100

    @Option(help: "Length of the trace in seconds (made of back-to-back sessions).")
    var seconds: Double = 60

    @Option(help: "Seed of the first session; the same seed gives the same trace.")
    var seed: UInt64 = 1

    @Option(help: "A convertible scenario by name (e.g. folding-to-tablet-and-turning-it), at --rate from --seed; --seconds is ignored.")
    var convertible: String?

    func run() throws {
        if let convertible {
            try writeConvertible(named: convertible)
            return
        }
        var metadata = TraceMetadata(mountMatrix: nil, source: "scenario-trace --rate \(rate) --seconds \(seconds) --seed \(seed)")
        var written = false
        var offset = 0.0
        var session = seed
        var output = ""
        while offset < seconds {
            let scenario = ScenarioLibrary.session(rate: rate, seed: session)
            if !written {
                metadata.mountMatrix = scenario.mountMatrix
                print(TraceFormat.preamble(metadata), terminator: "")
                written = true
            }
            // Later sessions are rotated into the first one's mounting so the whole trace has one sensor.
            let toFirst = ScenarioLibrary.session(rate: rate, seed: seed).mountMatrix
            let fromThis = scenario.mountMatrix
            for sample in scenario.samples where offset + sample.time < seconds {
                let device = fromThis.apply(sample.acceleration)
                let rows = toFirst.rows
                let sensor = rows.x * device.x + rows.y * device.y + rows.z * device.z
                output += TraceFormat.line(AccelSample(time: offset + sample.time, acceleration: sensor))
                if output.utf8.count > 1 << 16 {
                    print(output, terminator: "")
                    output = ""
                }
            }
            offset += (scenario.samples.last?.time ?? 0) + 1 / rate
            session += 1
        }
        print(output, terminator: "")
    }

    /// One scenario of the convertible suite, as drawn for this rate and seed, both sensors in their own frames.
    private func writeConvertible(named name: String) throws {
        let scenarios = FoldLibrary.all(rate: rate, seed: seed)
        // Scenario names carry their rate and seed ("tent-and-stand@50Hz#1").
        guard let scenario = scenarios.first(where: { $0.name.hasPrefix(name + "@") }) else {
            let names = scenarios.map { $0.name.prefix { $0 != "@" } }.joined(separator: ", ")
            throw ValidationError("no convertible scenario named '\(name)'; there are: \(names)")
        }
        // A convertible's panel is landscape: upright as a laptop is landscape-left, as orientd on one names it.
        let metadata = TraceMetadata(
            mountMatrix: scenario.mountMatrix, baseMountMatrix: scenario.baseMountMatrix,
            source: "scenario-trace --convertible \(name) --rate \(rate) --seed \(seed)", naturalOrientation: .landscape)
        print(TraceFormat.preamble(metadata, columns: .displayAndBase), terminator: "")
        print(scenario.samples.map(TraceFormat.line).joined(), terminator: "")
    }
}
