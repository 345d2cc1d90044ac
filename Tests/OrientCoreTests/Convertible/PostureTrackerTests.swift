import OrientCore
import Testing

@Suite("Posture tracker")
struct PostureTrackerTests {
    let g = 9.80665
    let onTable = Vector3(0, 0, -9.80665)

    /// Feeds `seconds` of one angle at 50 Hz and returns the tracker.
    func hold(_ tracker: inout PostureTracker, _ angle: Double?, base: Vector3? = nil, from t0: Double, seconds: Double = 0.5) {
        for i in 0..<Int(seconds * 50) {
            _ = tracker.update(time: t0 + Double(i) / 50, angle: angle, base: base ?? onTable)
        }
    }

    @Test("Each band gives its posture", arguments: [
        (3.0, Posture.closed), (100, .laptop), (178, .flat), (345, .tablet),
    ])
    func bands(angle: Double, posture: Posture) {
        var tracker = PostureTracker()
        hold(&tracker, angle, from: 0)
        #expect(tracker.posture == posture)
    }

    @Test("Beyond flat, the base face down is a stand and the base on its edge is a tent")
    func standAndTent() {
        var stand = PostureTracker()
        hold(&stand, 280, base: Vector3(0, -1, g), from: 0)
        #expect(stand.posture == .stand)
        var tent = PostureTracker()
        hold(&tent, 300, base: Vector3(0, -8.5, -4.9), from: 0)
        #expect(tent.posture == .tent)
    }

    @Test("A posture is kept until the angle leaves its band by the hysteresis")
    func bandHysteresis() {
        var tracker = PostureTracker()
        hold(&tracker, 160, from: 0)
        #expect(tracker.posture == .laptop)
        hold(&tracker, 173, from: 1)
        #expect(tracker.posture == .laptop, "173° is within 5° of the laptop band")
        hold(&tracker, 176, from: 2)
        #expect(tracker.posture == .flat)
        hold(&tracker, 167, from: 3)
        #expect(tracker.posture == .flat, "167° is within 5° of the flat band")
    }

    @Test("Tablet mode turns on at 200°, off at 160°, and holds in between")
    func tabletMode() {
        var tracker = PostureTracker()
        hold(&tracker, 120, from: 0)
        #expect(tracker.tabletMode == false)
        hold(&tracker, 195, from: 1)
        #expect(tracker.tabletMode == false)
        hold(&tracker, 201, from: 2)
        #expect(tracker.tabletMode == true)
        hold(&tracker, 170, from: 3)
        #expect(tracker.tabletMode == true)
        hold(&tracker, 159, from: 4)
        #expect(tracker.tabletMode == false)
    }

    @Test("While the angle is unknown nothing changes, and time spent unknown does not settle a change")
    func unknownHolds() {
        var tracker = PostureTracker()
        hold(&tracker, 110, from: 0)
        _ = tracker.update(time: 1.0, angle: 350, base: onTable)
        hold(&tracker, nil, from: 1.02, seconds: 1)
        #expect(tracker.posture == .laptop)
        #expect(tracker.tabletMode == false)
        // One reading after the spell is not enough: the settle time starts again.
        let change = tracker.update(time: 2.1, angle: 350, base: onTable)
        #expect(change.isEmpty)
    }

    @Test("A change needs the settle time; a brief excursion changes nothing")
    func settle() {
        var tracker = PostureTracker()
        hold(&tracker, 110, from: 0)
        hold(&tracker, 250, from: 1, seconds: 0.06)
        hold(&tracker, 110, from: 1.06)
        #expect(tracker.posture == .laptop)
        #expect(tracker.tabletMode == false)
    }

    @Test("Inconsistent settings are refused with the key named")
    func validation() {
        var settings = PostureSettings()
        settings.tabletModeOffAngle = 210
        #expect(throws: ClassifierSettingsError.self) { try settings.validate() }
        do {
            try settings.validate()
        } catch {
            #expect(error.key == "tablet-mode-off-angle")
        }
    }
}
