import OrientCore
import OrientScenarios
@testable import OrientTools
import Testing

/// Calibration sessions as people make them, on synthesised readings at a person's pace, fed through
/// ``PoseSequence`` as `orientd calibrate` feeds it: the right matrix or nothing, never a wrong one.
@Suite("Calibration sessions at a person's pace")
struct CalibrationWalkTests {
    /// How a session ended: the matrices it would write, or why it wrote nothing.
    struct Outcome {
        var display: MountMatrix?
        var base: MountMatrix?
        var failure: String?
        var said: [String]

        /// Whether anything written would be wrong.
        func isWrong(display expected: MountMatrix, base expectedBase: MountMatrix? = nil) -> Bool {
            guard let display else { return false }
            return display != expected || base != expectedBase
        }
    }

    /// Feeds `samples` (a convertible's carry the base reading) and Enter at the times in `enter`.
    static func run(_ samples: [AccelSample], convertible: Bool, enter: [Double] = []) -> Outcome {
        var poses = PoseSequence(convertible: convertible, readsEnter: !enter.isEmpty)
        var said = [poses.instruction]
        var presses = enter.sorted()
        var complete = false
        for sample in samples where !complete {
            while let press = presses.first, press <= sample.time, !complete {
                presses.removeFirst()
                complete = poses.enter { said.append($0) }
            }
            if let base = sample.base { poses.base(AccelSample(time: sample.time, acceleration: base)) }
            if !complete {
                complete = poses.display(AccelSample(time: sample.time, acceleration: sample.acceleration)) {
                    said.append($0)
                }
            }
        }
        guard complete else { return Outcome(failure: "the poses were not all taken", said: said) }
        do {
            let results = try poses.results()
            return Outcome(display: results.display.matrix, base: results.base?.matrix, said: said)
        } catch {
            return Outcome(failure: error.description, said: said)
        }
    }

    /// A person's pace: about three seconds to read the first instruction, each move 0.7 to 1.5 s, each pose held
    /// 1.5 to 3 s with a hand's wobble of half a degree.
    struct Pace {
        var random: SeededRandom

        mutating func reading() -> Double { random.uniform(2.5...4) }
        mutating func move() -> Double { random.uniform(0.7...1.5) }
        mutating func hold() -> Double { random.uniform(1.5...3) }
        mutating func wobble() -> Wobble { .hand(0.5, using: &random) }
    }

    static let tabletPoses = [Pose(angle: 0), Pose(angle: 90), Pose(angle: 180), Pose(angle: 180, tilt: 90)]
    static let faceUp = Pose(angle: 0, tilt: 90)

    /// A tablet lying at `start` while the instruction is read, then `first`, then the poses, each made and held.
    static func tablet(
        mounting: MountMatrix, seed: UInt64, start: Pose = faceUp, first: [Piece] = [], walk: [Pose] = tabletPoses
    ) -> [AccelSample] {
        var pace = Pace(random: SeededRandom(seed: seed))
        var pieces: [Piece] = [.hold(start, seconds: pace.reading())] + first
        for pose in walk {
            pieces += [.rotate(to: pose, seconds: pace.move()), .hold(pose, seconds: pace.hold(), wobble: pace.wobble())]
        }
        var sensor = SensorModel()
        sensor.mounting = mounting
        return Scenario.make("calibration", rate: 50, start: start, pieces: pieces, sensor: sensor, seed: seed).samples
    }

    static let convertiblePoses: [FoldPose] = [
        .onDesk(110), FoldPose(display: Pose(angle: 90), hinge: 110), .tablet(angle: 0, tilt: 90),
    ]
    static let folded = FoldPose.tablet(angle: 0, tilt: 90)

    static func convertible(
        display: MountMatrix, base: MountMatrix, seed: UInt64, start: FoldPose = folded, first: [FoldPiece] = []
    ) -> [AccelSample] {
        var pace = Pace(random: SeededRandom(seed: seed))
        var pieces: [FoldPiece] = [.hold(start, seconds: pace.reading())] + first
        for pose in convertiblePoses {
            pieces += [.move(to: pose, seconds: pace.move()), .hold(pose, seconds: pace.hold(), wobble: pace.wobble())]
        }
        var displaySensor = SensorModel()
        displaySensor.mounting = display
        var baseSensor = SensorModel()
        baseSensor.mounting = base
        return FoldScenario.make(
            "calibration", rate: 50, start: start, pieces: pieces, display: displaySensor, base: baseSensor, seed: seed
        ).samples
    }

    static let rotations = MountMatrix.axisAlignedRotations

    @Test("A tablet lying face up when calibrate starts, then walked through the poses: the right matrix", arguments: 0..<24)
    func tabletFromTheDesk(_ index: Int) throws {
        let mounting = Self.rotations[index]
        let outcome = Self.run(Self.tablet(mounting: mounting, seed: UInt64(index)), convertible: false)
        #expect(outcome.display == mounting, "\(outcome.failure ?? "") \(outcome.said)")
        let waiting = try #require(outcome.said.firstIndex { $0.hasPrefix("Waiting for pose 1") }, "\(outcome.said)")
        let first = try #require(outcome.said.firstIndex { $0.hasPrefix("Pose 1 taken as upright") }, "\(outcome.said)")
        #expect(waiting < first)
        #expect(outcome.said.filter { $0.hasPrefix("Pose") && $0.contains(" taken as ") }.count == 4, "\(outcome.said)")
    }

    @Test(
        "A convertible folded flat on the desk when calibrate starts, then opened and walked: both matrices right",
        arguments: 0..<24)
    func convertibleFromTheDesk(_ index: Int) {
        let display = Self.rotations[index]
        let base = Self.rotations[(index * 7 + 5) % 24]
        let outcome = Self.run(
            Self.convertible(display: display, base: base, seed: UInt64(index)), convertible: true)
        #expect(outcome.display == display && outcome.base == base, "\(outcome.failure ?? "") \(outcome.said)")
    }

    /// Moved to `pose` and left there for two seconds.
    static func rest(_ pose: Pose) -> [Piece] { [.rotate(to: pose, seconds: 1), .hold(pose, seconds: 2)] }

    /// Stillness somewhere after a movement, before pose 1: each is taken as pose 1, or as nothing.
    static let tabletDetours: [[Piece]] = [
        [.rotate(to: Pose(angle: 0, tilt: 40), seconds: 0.5)] + rest(faceUp),  // lifted and set down again
        rest(Pose(angle: 0, tilt: -90)),  // turned face down
        rest(Pose(angle: 270)),  // stood on its left edge
        rest(Pose(angle: 180, tilt: 90)),  // turned round on the desk
        rest(Pose(angle: 0, tilt: 45)),  // held up to read, leaning back
        rest(Pose(angle: 90)) + rest(faceUp),  // stood on its right edge first, then laid down again
    ]

    @Test(
        "Set down still somewhere else before pose 1, in every mounting: the right matrix or nothing, never a wrong one",
        arguments: 0..<24)
    func tabletDetour(_ index: Int) {
        let mounting = Self.rotations[index]
        for (number, detour) in Self.tabletDetours.enumerated() {
            let samples = Self.tablet(mounting: mounting, seed: UInt64(100 * index + number), first: detour)
            let outcome = Self.run(samples, convertible: false)
            #expect(!outcome.isWrong(display: mounting), "detour \(number): \(outcome.said)")
        }
    }

    @Test("Lifted and set down again before pose 1: the check names a pose taken too early, and nothing is written")
    func liftedAndSetDown() throws {
        let mounting = Self.rotations[5]
        let samples = Self.tablet(mounting: mounting, seed: 7, first: Self.tabletDetours[0])
        let outcome = Self.run(samples, convertible: false)
        #expect(outcome.display == nil)
        #expect(outcome.said.contains { $0.hasPrefix("Pose 1 taken as upright") }, "taken where it lay: \(outcome.said)")
        let failure = try #require(outcome.failure)
        #expect(failure.contains("The check failed"), "\(failure)")
        #expect(failure.contains("most likely a pose was taken before you made pose 1"), "\(failure)")
    }

    static func rest(_ pose: FoldPose) -> [FoldPiece] { [.move(to: pose, seconds: 1), .hold(pose, seconds: 2)] }

    static let convertibleDetours: [[FoldPiece]] = [
        [.move(to: .onDesk(150), seconds: 0.6)] + rest(folded),  // opened a little and folded again
        rest(.onDesk(180)),  // opened flat
        rest(FoldPose(display: Pose(angle: 270), hinge: 110)),  // stood on its left side
        rest(.tent()),
        rest(.stand()),  // the display stands as it does open on the table; the base lies keys down
    ]

    @Test(
        "A convertible set down still somewhere else before pose 1: the right matrices or nothing, never wrong ones",
        arguments: 0..<24)
    func convertibleDetour(_ index: Int) {
        let display = Self.rotations[index]
        let base = Self.rotations[(index * 7 + 5) % 24]
        for (number, detour) in Self.convertibleDetours.enumerated() {
            let samples = Self.convertible(display: display, base: base, seed: UInt64(100 * index + number), first: detour)
            let outcome = Self.run(samples, convertible: true)
            #expect(!outcome.isWrong(display: display, base: base), "detour \(number): \(outcome.said)")
        }
    }

    @Test("Standing upright from the start, nothing is taken until Enter; then the walk gives the right matrix")
    func uprightFromTheStart() throws {
        let mounting = Self.rotations[11]
        let upright = Self.tabletPoses[0]
        let samples = Self.tablet(mounting: mounting, seed: 8, start: upright, walk: Array(Self.tabletPoses.dropFirst()))
        // The person reads for at least 2.5 s, then presses Enter before turning it.
        let outcome = Self.run(samples, convertible: false, enter: [2.4])
        #expect(outcome.display == mounting, "\(outcome.failure ?? "") \(outcome.said)")
        #expect(outcome.said.contains { $0.contains("or press Enter if it is in pose 1 already") }, "\(outcome.said)")

        // Without Enter, turning on from there makes the second pose the first: nothing comes of it.
        let unaided = Self.run(samples, convertible: false)
        #expect(unaided.display == nil, "\(unaided.said)")
    }
}
