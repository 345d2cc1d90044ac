import OrientCore
import OrientScenarios
import Testing

/// The classifier's defaults against synthesised recordings at every supported rate.
///
/// Asserts the targets the defaults are tuned for: every hold classified correctly, no spurious change, and
/// deliberate rotations committed within 200 ms of the hand coming to rest at the 95th percentile. Prints the
/// figures so that a change of defaults shows what it costs.
@Suite("Scenario suite")
struct ScenarioSuiteTests {
    static let sessionsPerRate = 30

    @Test("Sessions of deliberate rotations meet the accuracy and latency targets", arguments: ScenarioLibrary.rates)
    func sessions(rate: Double) {
        var latencies: [Double] = []
        var failures: [String] = []
        var rotations = 0
        for seed in 1...UInt64(Self.sessionsPerRate) {
            let result = ScenarioLibrary.session(rate: rate, seed: seed).run()
            latencies += result.latencies
            failures += result.failures
            rotations += result.latencies.count
        }
        let summary = LatencySummary(latencies)
        print("scenario sessions @\(Int(rate)) Hz: \(Self.sessionsPerRate) sessions, \(rotations) rotations, "
            + "\(failures.count) failures; latency from rest p50 \(summary.p50Ms) ms, p95 \(summary.p95Ms) ms, max \(summary.maxMs) ms")
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
        #expect(summary.p95 <= 0.200, "p95 latency \(summary.p95Ms) ms over the 200 ms target")
    }

    @Test("Hard cases: table, face down, leaning back, hovering, shaking, walking, dropping, mirrored matrix",
          arguments: ScenarioLibrary.rates)
    func specialCases(rate: Double) {
        for scenario in ScenarioLibrary.special(rate: rate) {
            let result = scenario.run()
            #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
        }
    }

    @Test("Very low and very high rates still classify every hold", arguments: [5.0, 400.0])
    func extremeRates(rate: Double) {
        for seed in 1...UInt64(5) {
            let result = ScenarioLibrary.session(rate: rate, seed: seed).run()
            #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
        }
    }

    @Test("Without the handedness repair, a mirrored hwdb matrix swaps face up and face down")
    func mirroredMatrixNeedsRepair() {
        let scenario = ScenarioLibrary.special(rate: 50).first { $0.name.hasPrefix("mirrored-hwdb-matrix") }!
        let repaired = scenario.run()
        let unrepaired = scenario.run(repairHandedness: false)
        #expect(repaired.commits.last?.orientation == .faceUp)
        #expect(unrepaired.commits.last?.orientation == .faceDown)
    }
}

struct LatencySummary {
    let p50: Double
    let p95: Double
    let max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        p50 = percentile(0.5)
        p95 = percentile(0.95)
        max = sorted.last ?? 0
    }

    var p50Ms: Int { Int((p50 * 1000).rounded()) }
    var p95Ms: Int { Int((p95 * 1000).rounded()) }
    var maxMs: Int { Int((max * 1000).rounded()) }
}

/// The suite's checks must be able to fail: a classifier missing one of its defences fails the scenario meant for it.
@Suite("Scenario suite catches broken classifiers")
struct ScenarioSuiteTeethTests {
    private func failures(_ name: String, rate: Double = 50, _ change: (inout ClassifierSettings) -> Void) -> [String] {
        var settings = ClassifierSettings()
        change(&settings)
        let scenario = ScenarioLibrary.special(rate: rate).first { $0.name.hasPrefix(name) }!
        return scenario.run(settings: settings).failures
    }

    @Test("Without hysteresis or settling, hovering at 45 degrees flaps")
    func noHysteresis() {
        let found = failures("hovering-at-45-degrees") {
            $0.hysteresisGap = 0
            $0.settleTime = 0
            $0.filterTimeConstant = 0
        }
        #expect(found.contains { $0.contains("changes while hovering") })
    }

    @Test("Without the motion gate, shaking commits orientations")
    func noMotionGate() {
        let found = failures("shaken-from-start") {
            $0.accelerationTolerance = 9.8
            $0.freeFallMagnitude = 0
            $0.motionHoldoff = 0
            $0.filterTimeConstant = 0.01
        }
        #expect(found.contains { $0.contains("spurious") })
    }

    @Test("Without flat hysteresis and with a wide flat zone, leaning back 55 degrees reads as face up")
    func flatZoneTooWide() {
        let found = failures("leaning-back-55-degrees") {
            $0.flatEnterAngle = 40
            $0.flatExitAngle = 40
        }
        #expect(!found.isEmpty)
    }

    @Test("A sluggish filter misses the latency target")
    func sluggishFilter() {
        var settings = ClassifierSettings()
        settings.filterTimeConstant = 0.6
        var latencies: [Double] = []
        for seed in 1...UInt64(10) {
            latencies += ScenarioLibrary.session(rate: 50, seed: seed).run(settings: settings).latencies
        }
        #expect(LatencySummary(latencies).p95 > 0.2)
    }
}
