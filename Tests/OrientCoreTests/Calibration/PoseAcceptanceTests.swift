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
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: false)
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
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: false)
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
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: false)
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
        var acceptance = PoseAcceptance(needsBase: true, waitsForMovement: false)
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
        var acceptance = PoseAcceptance(needsBase: true, waitsForMovement: false)
        #expect(Self.decisions(&acceptance, Self.readings(Self.upright, from: 0, seconds: 3, random: &random)).isEmpty)
        #expect(acceptance.takeNow() == .refused(.noReadings))
    }

    @Test("A base that moves while the display is still is motion")
    func baseMoves() {
        var random = SeededRandom(seed: 6)
        var acceptance = PoseAcceptance(needsBase: true, waitsForMovement: false)
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
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: false)
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

    // The first pose waits for a movement.

    static let faceUp = Vector3(0, 0, -g)

    /// Readings at 50 Hz turning at an even pace from `a` to `b` (not opposite), a little noise on each axis.
    static func turning(
        from a: Vector3, to b: Vector3, from start: Double, seconds: Double, random: inout SeededRandom
    ) -> [CalibrationReading] {
        let count = Int(seconds * 50)
        return (0..<count).map { index in
            let u = Double(index) / Double(count)
            let direction = (a * (1 - u) + b * u).normalized ?? a
            let noise = Vector3(random.uniform(-0.05...0.05), random.uniform(-0.05...0.05), random.uniform(-0.05...0.05))
            return CalibrationReading(time: start + Double(index) / 50, display: direction * g + noise)
        }
    }

    static func tilted(_ degrees: Double) -> Vector3 {
        MountCalibrationTests.rotate(faceUp, about: Vector3(1, 0, 0), degrees: degrees)
    }

    @Test("Waiting for a movement, a device lying still from the start is never taken; that is said once")
    func lyingStill() throws {
        var random = SeededRandom(seed: 8)
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: true)
        let made = Self.decisions(&acceptance, Self.readings(Self.faceUp, from: 0, seconds: 10, random: &random))
        #expect(made.map(\.1) == [.refused(.notMoved)])
        #expect(try #require(made.first).0 < 1)
        #expect(!acceptance.hasMoved)
    }

    @Test("A jolt, and a nudge of 10 degrees and back, are not a movement")
    func nudges() {
        var random = SeededRandom(seed: 9)
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: true)
        var stream = Self.readings(Self.faceUp, from: 0, seconds: 2, random: &random)
        stream.append(CalibrationReading(time: 2, display: Self.faceUp + Vector3(8, 0, 0)))
        stream += Self.readings(Self.faceUp, from: 2.02, seconds: 1, random: &random)
        stream += Self.turning(from: Self.faceUp, to: Self.tilted(10), from: 3.02, seconds: 0.3, random: &random)
        stream += Self.readings(Self.tilted(10), from: 3.32, seconds: 1.5, random: &random)
        stream += Self.turning(from: Self.tilted(10), to: Self.faceUp, from: 4.82, seconds: 0.3, random: &random)
        stream += Self.readings(Self.faceUp, from: 5.12, seconds: 2, random: &random)
        let made = Self.decisions(&acceptance, stream).map(\.1)
        #expect(made == [.refused(.notMoved)])
        #expect(!acceptance.hasMoved)
    }

    @Test("Stood up from the desk, pose 1 is taken where it was stood, not where it lay")
    func stoodUp() throws {
        var random = SeededRandom(seed: 10)
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: true)
        var stream = Self.readings(Self.faceUp, from: 0, seconds: 2.5, random: &random)
        stream += Self.turning(from: Self.faceUp, to: Self.upright, from: 2.5, seconds: 0.8, random: &random)
        stream += Self.readings(Self.upright, from: 3.3, seconds: 2, random: &random)
        let made = Self.decisions(&acceptance, stream)
        #expect(made.count == 2)
        #expect(made.first?.1 == .refused(.notMoved))
        guard case .taken(let pose)? = made.last?.1 else { Issue.record("\(made)"); return }
        #expect((pose.display - Self.upright).length < 0.1)
        #expect(try #require(made.last).0 > 3.3)
    }

    @Test("Lifted and set down where it lay, it is taken there: a movement is all pose 1 asks (the checks do the rest)")
    func setDownAgain() {
        var random = SeededRandom(seed: 11)
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: true)
        var stream = Self.readings(Self.faceUp, from: 0, seconds: 2, random: &random)
        stream += Self.turning(from: Self.faceUp, to: Self.tilted(50), from: 2, seconds: 0.6, random: &random)
        stream += Self.turning(from: Self.tilted(50), to: Self.faceUp, from: 2.6, seconds: 0.6, random: &random)
        stream += Self.readings(Self.faceUp, from: 3.2, seconds: 2, random: &random)
        let made = Self.decisions(&acceptance, stream).map(\.1)
        #expect(made.count == 2)
        guard case .taken(let pose)? = made.last else { Issue.record("\(made)"); return }
        #expect((pose.display - Self.faceUp).length < 0.1)
    }

    @Test("Enter takes pose 1 without a movement: a convertible already standing open on the desk")
    func enterWithoutMovement() {
        var random = SeededRandom(seed: 12)
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: true)
        let made = Self.decisions(&acceptance, Self.readings(Self.upright, from: 0, seconds: 2, random: &random))
        #expect(made.map(\.1) == [.refused(.notMoved)])
        guard case .taken(let pose) = acceptance.takeNow() else { Issue.record("not taken"); return }
        #expect((pose.display - Self.upright).length < 0.1)
        #expect(acceptance.hasMoved)
    }

    @Test("A sensor's first zeros point nowhere: lying still after them is not a movement")
    func zerosFirst() {
        var random = SeededRandom(seed: 13)
        var acceptance = PoseAcceptance(needsBase: false, waitsForMovement: true)
        var stream = Self.readings(.zero, from: 0, seconds: 0.5, noise: 0, random: &random)
        stream += Self.readings(Self.faceUp, from: 0.5, seconds: 3, random: &random)
        let made = Self.decisions(&acceptance, stream).map(\.1)
        #expect(!made.contains { if case .taken = $0 { true } else { false } }, "\(made)")
        #expect(!acceptance.hasMoved)
    }

    @Test("A convertible turned from a stand to a laptop has moved, though its display points as it did")
    func baseTurnedOver() {
        var random = SeededRandom(seed: 14)
        var acceptance = PoseAcceptance(needsBase: true, waitsForMovement: true)
        let stand = FoldPose.stand(290).readings()
        let laptop = FoldPose.onDesk(110).readings()
        #expect(stand.display.degrees(to: laptop.display) < 1)
        var stream = Self.readings(stand.display, from: 0, seconds: 2, base: stand.base, random: &random)
        // The base turns half a turn about the hinge while the display stays where it was.
        stream += (0..<50).map { index in
            let base = MountCalibrationTests.rotate(stand.base, about: Vector3(1, 0, 0), degrees: 180 * Double(index) / 50)
            return CalibrationReading(time: 2 + Double(index) / 50, display: stand.display, base: base)
        }
        stream += Self.readings(laptop.display, from: 3, seconds: 2, base: laptop.base, random: &random)
        let made = Self.decisions(&acceptance, stream).map(\.1)
        #expect(made.count == 2)
        #expect(made.first == .refused(.notMoved))
        guard case .taken(let pose)? = made.last else { Issue.record("\(made)"); return }
        #expect(((pose.base ?? .zero) - laptop.base).length < 0.1)
    }
}
