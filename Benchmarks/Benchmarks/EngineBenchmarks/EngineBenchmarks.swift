import Foundation
import Benchmark
import OrientCore
import OrientProtocol
import OrientScenarios
import OrientServer
import OrientTrace

/// A million samples of people turning tablets at 100 Hz (about 2.8 hours), with times made continuous.
let recording: [AccelSample] = {
    var samples: [AccelSample] = []
    var offset = 0.0
    var seed: UInt64 = 1
    while samples.count < 1_000_000 {
        let session = ScenarioLibrary.session(rate: 100, seed: seed)
        for sample in session.samples {
            samples.append(AccelSample(time: offset + sample.time, acceleration: sample.acceleration))
        }
        offset = samples.last!.time + 0.01
        seed += 1
    }
    return Array(samples.prefix(1_000_000))
}()

/// The same recording as trace text, one line each.
let traceLines: [[UInt8]] = recording.prefix(100_000).map { Array(TraceFormat.line($0).utf8.dropLast()) }

/// A subscriber that only counts what it is sent.
final class CountingSink: SubscriberSink {
    var isWritable: Bool { true }
    var count = 0
    func send(_ line: String) { count += 1 }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 50)

    // Each iteration runs over the whole recording: samples per second = 1M × iterations per second.
    Benchmark("Classifier, 1M samples") { benchmark in
        for _ in benchmark.scaledIterations {
            var classifier = try OrientationClassifier()
            var changes = 0
            for sample in recording where try classifier.feed(sample) != nil { changes += 1 }
            blackHole(changes)
        }
    }

    Benchmark("Engine (mount matrix + classifier), 1M samples") { benchmark in
        let matrix = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1))
        for _ in benchmark.scaledIterations {
            var engine = try OrientationEngine(mountMatrix: matrix, tracker: InterfaceOrientationTracker())
            var changes = 0
            for sample in recording where try engine.feed(sample) != nil { changes += 1 }
            blackHole(changes)
        }
    }

    Benchmark("Trace line parsing, 100k lines") { benchmark in
        for _ in benchmark.scaledIterations {
            var parser = TraceLineParser()
            var header = Array("t,x,y,z".utf8)
            _ = try header.withUnsafeMutableBufferPointer { try parser.parse(line: UnsafeBufferPointer($0), number: 1) }
            var sum = 0.0
            for (index, line) in traceLines.enumerated() {
                if let sample = try line.withUnsafeBufferPointer({ try parser.parse(line: $0, number: index + 2) }) {
                    sum += sample.acceleration.x
                }
            }
            blackHole(sum)
        }
    }

    // Ten minutes of a light sensor read ten times a second (an integration time of 0.1 s), steady with 5 % noise or
    // along ramps of x2 in 30 s: the filter's lines are the cost (BENCHMARKS.md, "a ramp's second drift").
    for (name, ramp) in [("steady", 1.0), ("ramps", 2.0)] {
        let readings = lightReadings(ramp: ramp)
        Benchmark("Light filter, 10 min read 10 times a second, \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                var filter = LightFilter(threshold: 0.2)
                var published = 0
                for (time, level) in readings where filter.take(level, at: time).publish != nil { published += 1 }
                blackHole(published)
            }
        }
    }

    for subscribers in [1, 100, 1000] {
        Benchmark("Publisher fan-out of one change to \(subscribers) subscribers", configuration: .init(scalingFactor: .kilo)) { benchmark in
            let publisher = Publisher(
                settings: .init(), persistent: PersistentState(), version: "bench", dependencies: .init(clock: NoGetsClock()))
            let sinks = (0..<subscribers).map { _ in CountingSink() }
            let masks: [InterfaceOrientationMask] = [.all, .landscape, .allButUpsideDown, .portrait]
            for (index, sink) in sinks.enumerated() {
                _ = publisher.subscribe(sink, settings: SubscriptionSettings(mask: masks[index % masks.count]), id: nil)
            }
            let devices: [DeviceOrientation] = [.portrait, .landscapeLeft, .faceUp, .landscapeRight]
            var time = 0.0
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                time += 1
                publisher.deviceChanged(devices[iteration % devices.count], time: time)
            }
            benchmark.stopMeasurement()
            blackHole(sinks[0].count)
        }
    }
}

/// 6000 readings 0.1 s apart, in whole lux: 200 lux, times `ramp` over each 30 s, with 5 % noise from a fixed seed.
func lightReadings(ramp: Double) -> [(time: Double, level: Double)] {
    var random = SeededRandom(seed: 39)
    return (0..<6000).map { index in
        let time = Double(index) / 10
        let room = 200 * pow(ramp, time.truncatingRemainder(dividingBy: 30) / 30)
        return (time, (room * (1 + random.gaussian(sigma: 0.05))).rounded())
    }
}

/// No `get` waits in these benchmarks, so nothing is ever scheduled.
struct NoGetsClock: PublishingClock {
    func schedule(after seconds: Double, _ work: @escaping () -> Void) {}
}
