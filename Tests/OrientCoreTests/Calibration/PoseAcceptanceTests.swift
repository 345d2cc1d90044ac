import OrientCore
import OrientScenarios
import Testing

/// When a calibration pose is taken, and why one is refused.
@Suite("Pose acceptance")
struct PoseAcceptanceTests {
    static let g = 9.80665
    static let upright = Vector3(0, -g, 0)
    static let leftEdgeUp = Vector3(g, 0, 0)

    /// Readings at 50 Hz from `start` for `seconds`, `vector` plus up to `noise` m/s² on each axis.
    static func readings(
        _ vector: Vector3, from start: Double, seconds: Double, noise: Double = 0.05, base: Vector3? = nil,
        random: inout SeededRandom
    ) -> [CalibrationReading] {
        (0..<Int(seconds * 50)).map { index in
            func jitter() -> Vector3 {
                Vector3(random.uniform(-noise...noise), random.uniform(-noise...noise), random.uniform(-noise...noise))
            }
            return CalibrationReading(
                time: start + Double(index) / 50, display: vector + jitter(), base: base.map { $0 + jitter() })
        }
    }

    /// Every decision made while feeding `readings`, with the time of the reading that made it.
    static func decisions(
        _ acceptance: inout PoseAcceptance, _ readings: [CalibrationReading]
    ) -> [(Double, PoseDecision)] {
        readings.compactMap { reading in acceptance.feed(reading).map { (reading.time, $0) } }
    }

    @Test("Held still, a pose is taken after about a second, once, however long it is held")
    func takenOnce() throws {
        var random = SeededRandom(seed: 1)
        var acceptance = PoseAcceptance(needsBase: false)
        let made = Self.decisions(&acceptance, Self.readings(Self.upright, from: 0, seconds: 5, random: &random))
        #expect(made.count == 1)
        let (time, decision) = try #require(made.first)
        #expect(time >= 0.75 && time < 1.0, "before the second a wrong driver scale takes to be learned")
        guard case .taken(let pose) = decision else { Issue.record("\(decision)"); return }
        #expect((pose.display - Self.upright).length < 0.05)
        #expect(acceptance.previous == pose.display)
    }

    @Test("The same pose again after a movement is refused, a quarter turn is taken, and a half turn refused")
    func turns() {
        var random = SeededRandom(seed: 2)
        var acceptance = PoseAcceptance(needsBase: false)
        var stream = Self.readings(Self.upright, from: 0, seconds: 2, random: &random)
        stream += Self.readings(Vector3(4, -8, 3), from: 2, seconds: 0.3, noise: 2, random: &random)
        stream += Self.readings(Self.upright, from: 2.3, seconds: 2, random: &random)
        stream += Self.readings(Self.leftEdgeUp, from: 4.3, seconds: 2, random: &random)
        stream += Self.readings(Vector3(-Self.g, 0, 0), from: 6.3, seconds: 2, random: &random)
        let made = Self.decisions(&acceptance, stream).map(\.1)
        #expect(made.count == 4, "\(made)")
        guard made.count == 4 else { return }
        if case .taken = made[0] {} else { Issue.record("\(made[0])") }
        if case .refused(.tooCloseToPrevious(let degrees)) = made[1] {
            #expect(degrees < 2)
        } else {
            Issue.record("\(made[1])")
        }
        if case .taken = made[2] {} else { Issue.record("\(made[2])") }
        if case .refused(.turnedTooFar(let degrees)) = made[3] {
            #expect(degrees > 178)
        } else {
            Issue.record("\(made[3])")
        }
    }

    @Test("Motion that never settles is said every 4 seconds, and nothing is taken")
    func motion() {
        var random = SeededRandom(seed: 3)
        var acceptance = PoseAcceptance(needsBase: false)
        let made = Self.decisions(
            &acceptance, Self.readings(Self.upright, from: 0, seconds: 9, noise: 2, random: &random))
        #expect(made.map(\.0).map { ($0 * 10).rounded() / 10 } == [4, 8])
        for (_, decision) in made {
            guard case .refused(.moving(let spread)) = decision else { Issue.record("\(decision)"); continue }
            #expect(spread > 1)
        }
    }

    @Test(
        "Still readings far from 1 g are refused, for the display and for the base",
        arguments: [
            (Vector3(0, -3 * 9.80665, 0), Vector3(0, 0, -9.80665), 3.0, false),
            (Vector3(0, -0.5 * 9.80665, 0), Vector3(0, 0, -9.80665), 0.5, false),
            (Vector3(0, -9.80665, 0), Vector3(0, 0, -1.3 * 9.80665), 1.3, true),
        ])
    func notOneG(display: Vector3, base: Vector3, g: Double, isBase: Bool) throws {
        var random = SeededRandom(seed: 4)
        var acceptance = PoseAcceptance(needsBase: true)
        let made = Self.decisions(&acceptance, Self.readings(display, from: 0, seconds: 3, base: base, random: &random))
        #expect(made.count == 1)
        guard case .refused(.notOneG(let ratio, let refusedBase))? = made.first?.1 else {
            Issue.record("\(made)")
            return
        }
        #expect(abs(ratio - g) < 0.02)
        #expect(refusedBase == isBase)
        #expect(made[0].0 < 1.0)
        #expect(acceptance.previous == nil)
    }

    @Test("A convertible needs base readings: display readings alone decide nothing")
    func needsBase() {
        var random = SeededRandom(seed: 5)
        var acceptance = PoseAcceptance(needsBase: true)
        #expect(Self.decisions(&acceptance, Self.readings(Self.upright, from: 0, seconds: 3, random: &random)).isEmpty)
        #expect(acceptance.takeNow() == .refused(.noReadings))
    }

    @Test("A base that moves while the display is still is motion")
    func baseMoves() {
        var random = SeededRandom(seed: 6)
        var acceptance = PoseAcceptance(needsBase: true)
        var stream = Self.readings(Self.upright, from: 0, seconds: 5, base: Vector3(0, 0, -Self.g), random: &random)
        for index in stream.indices { stream[index].base!.x += Double(index % 7) * 0.5 }
        let made = Self.decisions(&acceptance, stream).map(\.1)
        #expect(made.count == 1)
        if case .refused(.moving)? = made.first {} else { Issue.record("\(made)") }
    }

    @Test(
        "Enter takes the pose from the last half second without waiting; moving, or before any reading, it is refused")
    func enter() {
        var random = SeededRandom(seed: 7)
        var acceptance = PoseAcceptance(needsBase: false)
        #expect(acceptance.takeNow() == .refused(.noReadings))
        for reading in Self.readings(Self.upright, from: 0, seconds: 0.5, noise: 2, random: &random) {
            _ = acceptance.feed(reading)
        }
        guard case .refused(.moving) = acceptance.takeNow() else { Issue.record("taken while moving"); return }
        for reading in Self.readings(Self.upright, from: 0.5, seconds: 0.6, random: &random) {
            #expect(acceptance.feed(reading) == nil)
        }
        guard case .taken(let pose) = acceptance.takeNow() else { Issue.record("not taken"); return }
        #expect((pose.display - Self.upright).length < 0.05)
        // The still window it came from is not judged again.
        #expect(
            Self.decisions(&acceptance, Self.readings(Self.upright, from: 1.1, seconds: 2, random: &random)).isEmpty)
    }
}
