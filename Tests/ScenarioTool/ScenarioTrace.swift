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
        abstract: "Write a synthesised accelerometer trace (a person turning a tablet) to standard output."
    )

    @Option(help: "Samples per second.")
    var rate: Double = 100

    @Option(help: "Length of the trace in seconds (made of back-to-back sessions).")
    var seconds: Double = 60

    @Option(help: "Seed of the first session; the same seed gives the same trace.")
    var seed: UInt64 = 1

    func run() throws {
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
}
