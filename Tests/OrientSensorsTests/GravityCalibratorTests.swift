import OrientCore
import OrientScenarios
import OrientSampleSource
@testable import OrientSensors
import Testing

@Suite("Learning 1 g: no scale, or a wrong one")
struct GravityCalibratorTests {
    static let g = GravityCalibrator.standardGravity
    static let rate = 50.0

    /// What a calibrator learns from `magnitudes`, one every 1/`rate` s from `start`: the learnings and when.
    static func feed(
        _ calibrator: inout GravityCalibrator, _ magnitudes: some Sequence<Double>, start: Double = 0, rate: Double = rate
    ) -> [(time: Double, learned: GravityCorrection)] {
        var learned: [(Double, GravityCorrection)] = []
        for (i, magnitude) in magnitudes.enumerated() {
            let time = start + Double(i) / rate
            if let correction = calibrator.learn(magnitude: magnitude, at: time) { learned.append((time, correction)) }
        }
        return learned
    }

    /// `seconds` of readings at rest: `magnitude` with 0.3 % noise (a real sensor at rest is within about 1 %).
    static func rest(_ magnitude: Double, seconds: Double, random: inout SeededRandom) -> [Double] {
        (0..<Int(seconds * rate)).map { _ in magnitude * (1 + random.gaussian(sigma: 0.003)) }
    }

    @Test("A correct scale is left alone: correction 1, nothing learned, at rest or moved about")
    func correctScale() {
        var random = SeededRandom(seed: 1)
        var calibrator = GravityCalibrator(publishedScale: Vector3(0.0383072, 0.0383072, 0.0383072))
        #expect(calibrator.correction == 1)
        #expect(Self.feed(&calibrator, Self.rest(Self.g, seconds: 10, random: &random)).isEmpty)
        // Carried about: 0.75 to 1.3 g, inside the plausible band.
        let handled = (0..<500).map { _ in Self.g * random.uniform(0.75...1.3) }
        #expect(Self.feed(&calibrator, handled, start: 10).isEmpty)
        #expect(calibrator.correction == 1)
    }

    /// Published scales off by these factors: readings at rest are `factor` g. "g units" reads 1.0 for 1 g.
    @Test("Steady readings far from 1 g are learned as 1 g", arguments: [
        ("×10", 10 * g), ("×1000", 1000 * g), ("×0.1", 0.1 * g), ("g units", 1.0),
    ])
    func wrongScale(name: String, restMagnitude: Double) throws {
        var random = SeededRandom(seed: 2)
        var calibrator = GravityCalibrator(publishedScale: Vector3(10, 10, 10))
        let learned = Self.feed(&calibrator, Self.rest(restMagnitude, seconds: 3, random: &random))
        try #require(learned.count == 1, "learned once, and not again from the same rest")
        #expect(learned[0].time >= 1 && learned[0].time < 1.05, "after a second of steady readings")
        let factor = try #require(calibrator.correction)
        #expect(factor == learned[0].learned.factor)
        #expect(abs(restMagnitude * factor / Self.g - 1) < 0.002, "the corrected rest reads 1 g")
        #expect(abs(learned[0].learned.restMagnitude / restMagnitude - 1) < 0.002)
        #expect(learned[0].learned.publishedScale == Vector3(10, 10, 10))
        // Corrected, shaking no longer counts: the next readings are inside the band.
        #expect(Self.feed(&calibrator, Self.rest(restMagnitude, seconds: 2, random: &random), start: 3).isEmpty)
        #expect(calibrator.correction == factor)
    }

    @Test("A correction learned before applies from the first reading; a stale one is learned again")
    func learnedBefore() throws {
        var random = SeededRandom(seed: 6)
        var reopened = GravityCalibrator(publishedScale: Vector3(10, 10, 10), learnedBefore: Self.g / 256)
        #expect(reopened.correction == Self.g / 256)
        #expect(Self.feed(&reopened, Self.rest(256, seconds: 3, random: &random)).isEmpty, "nothing to learn, nothing to say")
        var noScale = GravityCalibrator(publishedScale: nil, learnedBefore: Self.g / 1000)
        #expect(noScale.correction == Self.g / 1000, "readings flow at once")
        // The sensor now reads 1 g as 256 units, not 1000: corrected, that is 0.26 g, steady.
        let learned = Self.feed(&noScale, Self.rest(256, seconds: 2, random: &random))
        try #require(learned.count == 1)
        #expect(abs(256 * (try #require(noScale.correction)) / Self.g - 1) < 0.002)
    }

    @Test("At a slow rate it takes more than a second: 10 readings at the least")
    func slowRate() {
        var calibrator = GravityCalibrator(publishedScale: Vector3(1, 1, 1))
        let learned = Self.feed(&calibrator, Array(repeating: 10 * Self.g, count: 20), rate: 5)
        #expect(learned.map(\.time) == [1.8], "the 10th reading, 1.8 s after the first")
        #expect(abs((calibrator.correction ?? 0) - 0.1) < 1e-12)
    }

    @Test("Shaking is not steady: never learned, whether or not it leaves the plausible band")
    func shaking() {
        var random = SeededRandom(seed: 3)
        var correct = GravityCalibrator(publishedScale: Vector3(1, 1, 1))
        // Shaken hard about 1 g: 0.2 to 3 g, in and out of the band.
        #expect(Self.feed(&correct, (0..<1000).map { _ in Self.g * random.uniform(0.2...3) }).isEmpty)
        // Shaken so hard it never comes back into the band for 20 s: 1.5 to 3 g.
        #expect(Self.feed(&correct, (0..<1000).map { _ in Self.g * random.uniform(1.5...3) }, start: 20).isEmpty)
        #expect(correct.correction == 1)
        // A scale 10 times too large, shaken: 10 g ± 30 %.
        var wrong = GravityCalibrator(publishedScale: Vector3(1, 1, 1))
        #expect(Self.feed(&wrong, (0..<1000).map { _ in 10 * Self.g * (1 + random.gaussian(sigma: 0.3)) }).isEmpty)
        #expect(wrong.correction == 1)
    }

    @Test("Free fall is never learned as 1 g: near 0 never, a brief steady fall too short")
    func freeFall() {
        var random = SeededRandom(seed: 4)
        var calibrator = GravityCalibrator(publishedScale: Vector3(1, 1, 1))
        #expect(Self.feed(&calibrator, Array(repeating: 0.0, count: 500)).isEmpty, "exactly 0")
        // 10 s reading a steady 0.03 g (a zero-g offset): below the minimum magnitude.
        #expect(Self.feed(&calibrator, Self.rest(0.03 * Self.g, seconds: 10, random: &random), start: 10).isEmpty)
        // A 0.5 s drop reading a steady 0.1 g offset, then rest: too short to learn from.
        let drop = Self.rest(0.1 * Self.g, seconds: 0.5, random: &random) + Self.rest(Self.g, seconds: 2, random: &random)
        #expect(Self.feed(&calibrator, drop, start: 20).isEmpty)
        #expect(calibrator.correction == 1)
        #expect(calibrator.learn(magnitude: .nan, at: 30) == nil)
        #expect(calibrator.learn(magnitude: .infinity, at: 30.02) == nil)
    }

    @Test("A correction learned from something other than rest is replaced by the next steady rest")
    func relearns() throws {
        var random = SeededRandom(seed: 5)
        var calibrator = GravityCalibrator(publishedScale: Vector3(1, 1, 1))
        // 1.5 s at a steady 1.5 g (a long hard turn in a vehicle) is learned, wrongly...
        let turn = Self.feed(&calibrator, Self.rest(1.5 * Self.g, seconds: 1.5, random: &random))
        #expect(turn.count == 1)
        // ...and at rest the corrected readings are 0.67 g, steady, below 1/1.4 g: learned back.
        let rest = Self.feed(&calibrator, Self.rest(Self.g, seconds: 2, random: &random), start: 2)
        try #require(rest.count == 1)
        #expect(abs(try #require(calibrator.correction) - 1) < 0.002)
    }

    @Test("No scale: nothing until steady readings for half a second give 1 g; shaking and zeros teach nothing")
    func noScale() {
        var calibrator = GravityCalibrator(publishedScale: nil)
        #expect(calibrator.correction == nil)
        #expect(Self.feed(&calibrator, (0..<100).map { 1000 + Double($0 % 2) * 200 }).isEmpty, "shaken readings teach nothing")
        let learned = Self.feed(&calibrator, Array(repeating: 1000.0, count: 60), start: 2)
        #expect(learned.count == 1 && learned[0].time >= 2.5 && learned[0].time < 2.55)
        #expect(calibrator.correction == Self.g / 1000)
        #expect(calibrator.learn(magnitude: 5000, at: 4) == nil, "one odd reading changes nothing")
        #expect(calibrator.correction == Self.g / 1000)
        var zeroes = GravityCalibrator(publishedScale: nil)
        #expect(Self.feed(&zeroes, Array(repeating: 0.0, count: 200)).isEmpty)
        #expect(zeroes.correction == nil)
    }

    @Test("The log line names the device, the published scale, what rest reads and the factor")
    func explanation() {
        let wrong = GravityCorrection(restMagnitude: 256, factor: Self.g / 256, publishedScale: Vector3(10, 10, 10))
        #expect(wrong.explanation(device: "accel_3d (iio:device0)")
            == "accel_3d (iio:device0): readings at rest are 26.1 g at the published scale 10; treating them as 1 g (correction ×0.0383)")
        let perAxis = GravityCorrection(restMagnitude: 1, factor: Self.g, publishedScale: Vector3(0.001, 0.001, 0.002))
        #expect(perAxis.explanation(device: "iio:device3")
            == "iio:device3: readings at rest are 0.102 g at the published scale (0.001, 0.001, 0.002); treating them as 1 g (correction ×9.81)")
        let none = GravityCorrection(restMagnitude: 1003, factor: Self.g / 1003, publishedScale: nil)
        #expect(none.explanation(device: "iio:device0")
            == "iio:device0: readings at rest measure 1003 in the driver's units (it gives no scale); treating them as 1 g (scale ×0.00978)")
    }

    @Test("Figures to three significant digits, without a trailing .0", arguments: [
        (9.80665 / 9806.6432, 3, "0.001"), (1000.0000007, 3, "1000"), (9.80665 / 0.980664, 3, "10"), (0.1, 3, "0.1"),
        (-25.6, 3, "-25.6"), (0.0383072, 6, "0.0383072"), (26.104, 3, "26.1"), (123_456, 3, "123000"),
    ])
    func format(value: Double, digits: Int, text: String) {
        #expect(GravityCorrection.format(value, digits: digits) == text)
    }
}
