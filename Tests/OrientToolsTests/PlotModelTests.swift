import Foundation
import OrientCore
import Testing

@testable import OrientTools

@Suite("orientd plot: the drawing model")
struct PlotModelTests {
    @Test("The decimator holds at most its capacity of bins, and keeps every extreme and every sample's count")
    func decimatorKeepsExtremes() throws {
        var decimator = MinMaxDecimator<SIMD4<Double>>(capacity: 64)
        var low = SIMD4<Double>(repeating: .infinity)
        var high = SIMD4<Double>(repeating: -.infinity)
        var maxBins = 0
        for i in 0..<100_000 {
            let t = Double(i) * 0.01
            let values = SIMD4(sin(t), cos(3 * t), t.truncatingRemainder(dividingBy: 7), i == 54_321 ? 99 : 9.8)
            low = pointwiseMin(low, values)
            high = pointwiseMax(high, values)
            decimator.add(time: t, values: values)
            maxBins = max(maxBins, decimator.bins.count)
        }
        #expect(maxBins <= 64)
        #expect(decimator.bins.count > 32, "doubling leaves at least half the bins in use")
        #expect(decimator.bins.map(\.bin.count).reduce(0, +) == 100_000)
        let bins = decimator.bins.map(\.bin)
        #expect(bins.map(\.minimum).reduce(SIMD4(repeating: .infinity), pointwiseMin) == low)
        #expect(bins.map(\.maximum).reduce(SIMD4(repeating: -.infinity), pointwiseMax) == high)
        let spike = try #require(bins.first { $0.maximum[3] == 99 })
        #expect(spike.maximumAt[3] == 543.21)
        #expect(zip(bins, bins.dropFirst()).allSatisfy { $0.last < $1.first }, "bins are in time order")
    }

    @Test("Spans: unknown until the first commit, one per device change, interface changes only")
    func spans() throws {
        let engine = ConvertibleEngine(orientation: try OrientationEngine(tracker: InterfaceOrientationTracker()), posture: nil)
        var recorder = TimelineRecorder(engine: engine, bins: 100)
        func hold(_ reading: Vector3, from start: Double, seconds: Double) {
            for i in 0..<Int(seconds * 50) {
                recorder.feed(AccelSample(time: start + Double(i) / 50, acceleration: reading))
            }
        }
        hold(Vector3(0, -9.8, 0), from: 0, seconds: 1)
        hold(Vector3(0, 0, -9.8), from: 1, seconds: 1)  // face up keeps the interface
        hold(Vector3(0, 25, 0), from: 2, seconds: 0.5)  // a jolt: gated
        hold(Vector3(9.8, 0, 0), from: 2.5, seconds: 1)
        let timeline = recorder.finished
        #expect(timeline.sampleCount == 175)
        #expect(timeline.deviceSpans.map(\.value) == [.unknown, .portrait, .faceUp, .landscapeRight])
        #expect(timeline.interfaceSpans.map(\.value) == [.unknown, .portrait, .landscapeLeft])
        #expect(timeline.deviceSpans.first?.start == 0 && timeline.deviceSpans.last?.end == timeline.last)
        for (span, next) in zip(timeline.deviceSpans, timeline.deviceSpans.dropFirst()) { #expect(span.end == next.start) }
        let gate = try #require(timeline.gated.first)
        #expect(timeline.gated.count == 1)
        #expect(gate.lowerBound == 2 && abs(gate.upperBound - 2.74) < 1e-9, "from the jolt to 0.25 s after it")
        #expect(timeline.changes.last.map { $0.time >= gate.upperBound } == true, "the landscape commit waits for the gate")
    }

    @Test("Two sensors: θ is kept where known, its unknown stretches, and posture and tablet-mode spans")
    func postureTimeline() throws {
        let engine = ConvertibleEngine(
            orientation: try OrientationEngine(tracker: InterfaceOrientationTracker()), posture: try PostureEngine())
        var recorder = TimelineRecorder(engine: engine, bins: 100)
        let side = Vector3(9.80665, 0, 0)
        for i in 0..<250 {
            let t = Double(i) / 50
            // Open at 100° for 2 s, stood upright for 1 s (θ unknown), then folded flat back to 360° by 4 s.
            switch t {
            case ..<2: recorder.feed(lidSample(time: t, theta: 100))
            case ..<3: recorder.feed(AccelSample(time: t, acceleration: side, base: side))
            default: recorder.feed(lidSample(time: t, theta: min(360, 100 + 260 * (t - 3))))
            }
        }
        let timeline = recorder.finished
        let posture = try #require(timeline.posture)
        let known = posture.angles.bins.map(\.bin.count).reduce(0, +)
        #expect(known > 150 && known < 250, "θ only where it was known: \(known) samples")
        let angles = posture.angles.bins.map(\.bin)
        #expect(angles.map { $0.minimum[0] }.min()! >= 99.5 && angles.map { $0.maximum[0] }.max()! > 355)
        #expect(posture.unknownAngle.count == 1)
        let unknown = try #require(posture.unknownAngle.first)
        #expect(unknown.lowerBound > 2 && unknown.lowerBound < 2.5 && unknown.upperBound > 3 && unknown.upperBound < 3.5)
        #expect(!angles.contains { $0.first < unknown.upperBound && $0.last > unknown.lowerBound }, "no θ inside it")
        #expect(timeline.postureSpans.first?.value == .unknown && timeline.postureSpans.dropFirst().first?.value == .laptop)
        #expect(timeline.postureSpans.last?.value == .tablet && timeline.postureSpans.last?.end == timeline.last)
        #expect(timeline.tabletModeSpans.map(\.value) == [.unknown, .off, .on])
        #expect(posture.rotateIn == .tabletMode && posture.tabletModeAngles == (200, 160))

        var alone = TimelineRecorder(
            engine: ConvertibleEngine(orientation: try OrientationEngine(tracker: InterfaceOrientationTracker()), posture: nil),
            bins: 100)
        alone.feed(lidSample(time: 0, theta: 100))
        #expect(alone.finished.posture == nil && alone.finished.postureSpans.isEmpty)
    }

    @Test("Axis steps are round, time labels read as a clock")
    func ticks() {
        #expect(AxisTicks.decimalStep(span: 30, count: 6) == 5)
        #expect(AxisTicks.decimalStep(span: 0.9, count: 10) == 0.1)
        #expect(AxisTicks.timeStep(span: 60, count: 10) == 10)
        #expect(AxisTicks.timeStep(span: 3600, count: 10) == 600)
        #expect(AxisTicks.timeStep(span: 86400, count: 10) == 5 * 3600)
        #expect(AxisTicks.values(from: -12, to: 12, step: 5) == [-10, -5, 0, 5, 10])
        #expect(AxisTicks.timeLabel(600, step: 600) == "10:00")
        #expect(AxisTicks.timeLabel(3900, step: 300) == "1:05:00")
        #expect(AxisTicks.timeLabel(2.5, step: 0.5) == "2.5 s")
        #expect(AxisTicks.decimalStep(span: 1e-300, count: 5) > 0, "a tiny span still gives a step")
    }

    @Test("Numbers are short and finite; text is escaped")
    func formatting() {
        #expect(SVGNumber.fixed(12.25, decimals: 1) == "12.3")
        #expect(SVGNumber.fixed(3, decimals: 1) == "3")
        #expect(SVGNumber.fixed(-0.04, decimals: 1) == "0")
        #expect(SVGNumber.fixed(-0.25, decimals: 2) == "-0.25")
        #expect(SVGNumber.fixed(0.05, decimals: 2) == "0.05")
        #expect(SVGNumber.fixed(.nan, decimals: 1) == "0")
        #expect(SVGNumber.fixed(.infinity, decimals: 1) == "100000000000000")
        #expect(SVGWriter.escape("a<b & \"c\"\u{1}") == "a&lt;b &amp; &quot;c&quot;\u{FFFD}")
    }
}

/// A convertible's sample with its base flat on a desk and the lid open at `theta`.
private func lidSample(time: Double, theta: Double) -> AccelSample {
    let base = Vector3(0, 0, -9.80665)
    return AccelSample(time: time, acceleration: HingeGeometry.display(fromBase: base, hingeAngle: theta), base: base)
}
