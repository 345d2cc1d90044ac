import OrientCore
import Testing

@Suite("Classifier")
struct ClassifierTests {
    /// Feeds a constant reading at `rate` Hz for `seconds`, returning every commit.
    private func hold(
        _ reading: Vector3, seconds: Double, rate: Double = 50, from start: Double = 0,
        classifier: inout OrientationClassifier
    ) throws -> [DeviceOrientation] {
        var commits: [DeviceOrientation] = []
        let count = Int(seconds * rate)
        for i in 0..<count {
            if let o = try classifier.feed(AccelSample(time: start + Double(i) / rate, acceleration: reading)) {
                commits.append(o)
            }
        }
        return commits
    }

    @Test("Unknown until the first settled orientation, then that orientation once")
    func firstSettle() throws {
        var c = try OrientationClassifier()
        #expect(try c.feed(AccelSample(time: 0, x: 0, y: -9.8, z: 0)) == nil)
        #expect(c.orientation == .unknown)
        let commits = try hold(Vector3(0, -9.8, 0), seconds: 1, from: 0.02, classifier: &c)
        #expect(commits == [.portrait])
    }

    @Test("A lone reading's first guess: the nearest upright or flat orientation, whatever its size; unknown when it is too weak")
    func firstGuess() throws {
        let c = try OrientationClassifier()
        #expect(c.firstGuess(Vector3(0, -9.8, 0)) == .portrait)
        #expect(c.firstGuess(Vector3(0, -256, 0)) == .portrait, "26 g, as iio-sensor-proxy's suite reads at a wrong scale")
        #expect(c.firstGuess(Vector3(0, 9.8, 1)) == .portraitUpsideDown)
        #expect(c.firstGuess(Vector3(9.8, -3, 0)) == .landscapeRight)
        #expect(c.firstGuess(Vector3(-9.8, 3, 0)) == .landscapeLeft)
        #expect(c.firstGuess(Vector3(0.5, 0, -9.8)) == .faceUp)
        #expect(c.firstGuess(Vector3(0, 0, 9.8)) == .faceDown)
        #expect(c.firstGuess(Vector3(0.0001, 0.0002, 0)) == .unknown, "a reading scaled to nothing")
        #expect(c.firstGuess(Vector3(.nan, -9.8, 0)) == .unknown)
        #expect(c.orientation == .unknown, "nothing is committed")
    }

    @Test("The engine reports the first guess with its first sample only, in the panel's names")
    func engineFirstReading() throws {
        let display = try OrientationEngine(natural: .landscape, tracker: InterfaceOrientationTracker())
        var engine = ConvertibleEngine(orientation: display, posture: nil)
        let first = try engine.feed(AccelSample(time: 0, x: 0, y: -9.8, z: 0))
        #expect(first.firstReading == display.firstGuess(deviceFrame: Vector3(0, -9.8, 0)))
        #expect(first.firstReading != nil && first.firstReading != .unknown)
        #expect(try engine.feed(AccelSample(time: 0.02, x: 0, y: -9.8, z: 0)).firstReading == nil)
    }

    @Test("Time that does not increase is an error the caller sees, and changes nothing")
    func timeErrors() throws {
        var c = try OrientationClassifier()
        _ = try hold(Vector3(0, -9.8, 0), seconds: 1, classifier: &c)
        let before = c.orientation
        #expect(throws: ClassifierError.nonIncreasingTime(previous: 0.98, got: 0.98)) {
            try c.feed(AccelSample(time: 0.98, x: 9.8, y: 0, z: 0))
        }
        #expect(throws: ClassifierError.self) { try c.feed(AccelSample(time: 0.5, x: 9.8, y: 0, z: 0)) }
        #expect(throws: ClassifierError.self) { try c.feed(AccelSample(time: .nan, x: 0, y: 0, z: 0)) }
        #expect(throws: ClassifierError.self) { try c.feed(AccelSample(time: 2, x: .infinity, y: 0, z: 0)) }
        #expect(c.orientation == before)
        #expect(try c.feed(AccelSample(time: 1.0, x: 0, y: -9.8, z: 0)) == nil, "later samples are still accepted")
    }

    @Test("Free fall and readings far from 1 g commit nothing")
    func gating() throws {
        var c = try OrientationClassifier()
        #expect(try hold(Vector3(0, -0.3, 0), seconds: 2, classifier: &c).isEmpty, "free fall")
        #expect(try hold(Vector3(0, -16, 0), seconds: 2, from: 2, classifier: &c).isEmpty, "1.6 g")
        #expect(try hold(Vector3(0, -9.8, 0), seconds: 1, from: 4, classifier: &c) == [.portrait])
    }

    @Test("isMotionGated holds from a moved reading until motion-holdoff after it")
    func motionGateState() throws {
        var c = try OrientationClassifier()
        #expect(!c.isMotionGated, "nothing fed yet")
        _ = try hold(Vector3(0, -9.8, 0), seconds: 1, classifier: &c)
        #expect(!c.isMotionGated)
        _ = try c.feed(AccelSample(time: 1.0, x: 0, y: -16, z: 0))
        #expect(c.isMotionGated)
        _ = try c.feed(AccelSample(time: 1.24, x: 0, y: -9.8, z: 0))
        #expect(c.isMotionGated, "0.24 s after the jolt, inside the 0.25 s holdoff")
        _ = try c.feed(AccelSample(time: 1.25, x: 0, y: -9.8, z: 0))
        #expect(!c.isMotionGated, "the holdoff has passed")
        c.reset()
        #expect(!c.isMotionGated)
    }

    @Test("Readings in unknown units classify once gravity is set to their size of 1 g")
    func otherUnits() throws {
        var settings = ClassifierSettings()
        settings.gravity = 1000
        settings.accelerationTolerance = 400
        settings.freeFallMagnitude = 100
        var c = try OrientationClassifier(settings: settings)
        // iio-sensor-proxy's buffered fixture: raw (103, -919, -385) with no scale is portrait.
        #expect(try hold(Vector3(103, -919, -385), seconds: 1, classifier: &c) == [.portrait])
    }

    @Test("A long gap restarts the filter: the new reading counts at once, not blended with the old")
    func gapRestartsFilter() throws {
        var c = try OrientationClassifier()
        _ = try hold(Vector3(0, -9.8, 0), seconds: 1, classifier: &c)
        _ = try c.feed(AccelSample(time: 10, x: 9.8, y: 0, z: 0))
        #expect(c.filtered == Vector3(9.8, 0, 0))
    }

    @Test("reset() returns to unknown")
    func reset() throws {
        var c = try OrientationClassifier()
        _ = try hold(Vector3(0, -9.8, 0), seconds: 1, classifier: &c)
        c.reset()
        #expect(c.orientation == .unknown)
        #expect(try hold(Vector3(-9.8, 0, 0), seconds: 1, classifier: &c) == [.landscapeLeft])
    }

    @Test("Inconsistent settings are refused, naming the setting")
    func badSettings() {
        var settings = ClassifierSettings()
        settings.flatExitAngle = 10
        #expect(throws: ClassifierSettingsError.self) { try OrientationClassifier(settings: settings) }
        settings = ClassifierSettings()
        settings.settleTime = -1
        #expect {
            try OrientationClassifier(settings: settings)
        } throws: { "\($0)".contains("settle-time") }
    }

    @Test("Settings are set by name")
    func namedSettings() throws {
        var settings = ClassifierSettings()
        try settings.apply(assignment: "settle-time=0.1")
        try settings.apply(assignment: " hysteresis-gap = 30 ")
        #expect(settings.settleTime == 0.1)
        #expect(settings.hysteresisGap == 30)
        #expect(throws: ClassifierSettingsError.self) { try settings.apply(assignment: "settle=0.1") }
        #expect(throws: ClassifierSettingsError.self) { try settings.apply(assignment: "settle-time") }
        #expect(throws: ClassifierSettingsError.self) { try settings.apply(assignment: "settle-time=fast") }
    }
}
