import OrientCore
import Testing

@Suite("Convertible engine")
struct ConvertibleEngineTests {
    let g = 9.80665

    func engine(rotateIn: RotateIn? = nil) -> ConvertibleEngine {
        ConvertibleEngine(
            orientation: try! OrientationEngine(tracker: InterfaceOrientationTracker()),
            posture: try! PostureEngine(), rotateIn: rotateIn)
    }

    /// `seconds` of a display attitude at hinge angle `theta`, 50 Hz; returns every update that changed something.
    func hold(_ engine: inout ConvertibleEngine, display: Vector3, theta: Double, from t0: Double, seconds: Double = 1)
        -> [ConvertibleEngine.Update]
    {
        let base = HingeGeometry.base(fromDisplay: display, hingeAngle: theta)
        return (0..<Int(seconds * 50)).compactMap { i in
            let update = try! engine.feed(AccelSample(time: t0 + Double(i) / 50, acceleration: display, base: base))
            return update.isEmpty ? nil : update
        }
    }

    /// Folds from `from` to `to` degrees over one second at 50 Hz, the display held at one attitude; returns
    /// every update that changed something.
    @discardableResult
    func fold(_ engine: inout ConvertibleEngine, display: Vector3, from: Double, to: Double, at t0: Double)
        -> [ConvertibleEngine.Update]
    {
        (0..<50).compactMap { i in
            let theta = from + (to - from) * Double(i) / 49
            let base = HingeGeometry.base(fromDisplay: display, hingeAngle: theta)
            let update = try! engine.feed(AccelSample(time: t0 + Double(i) / 50, acceleration: display, base: base))
            return update.isEmpty ? nil : update
        }
    }

    var portrait: Vector3 { Vector3(0, -g, 0) }
    /// Left edge up, leaning back 41° (so the hinge, along x, is far enough from vertical for θ to be read):
    /// device landscape-right, interface landscape-left.
    var leftEdgeUp: Vector3 { Vector3(g * 0.75, 0, -g * 0.66) }

    @Test("Defaults: tablet-mode with a base sensor, always without")
    func defaults() {
        #expect(engine().rotateIn == .tabletMode)
        let single = ConvertibleEngine(orientation: try! OrientationEngine(tracker: InterfaceOrientationTracker()), posture: nil)
        #expect(single.rotateIn == .always)
    }

    @Test("Without a tracker (the daemon's) it commits the same devices and postures, and resolves no interface")
    func withoutTracker() {
        var tracked = engine()
        var bare = ConvertibleEngine(
            orientation: try! OrientationEngine(tracker: nil), posture: try! PostureEngine(), rotateIn: .tabletMode)
        var (withInterface, without): ([ConvertibleEngine.Update], [ConvertibleEngine.Update]) = ([], [])
        for (index, display) in [portrait, leftEdgeUp].enumerated() {
            withInterface += hold(&tracked, display: display, theta: 110, from: Double(index))
            without += hold(&bare, display: display, theta: 110, from: Double(index))
        }
        withInterface += fold(&tracked, display: leftEdgeUp, from: 110, to: 350, at: 2)
        without += fold(&bare, display: leftEdgeUp, from: 110, to: 350, at: 2)
        // The tracked engine's extra updates are its interface held or released (rotate-in): no device in them moves.
        let devices = { (updates: [ConvertibleEngine.Update]) in updates.compactMap(\.orientation).map(\.device) }
        #expect(Array(Set(devices(withInterface))).sorted { $0.rawValue < $1.rawValue }
            == Array(Set(devices(without))).sorted { $0.rawValue < $1.rawValue })
        #expect(withInterface.compactMap(\.posture) == without.compactMap(\.posture))
        #expect(without.compactMap(\.orientation).allSatisfy { $0.interface == nil } && !without.isEmpty)
        #expect(bare.orientation.interface == nil && bare.orientation.device == tracked.orientation.device)
    }

    @Test("In laptop posture the interface stays upright for the keyboard; in tablet mode it turns")
    func rotateInTabletMode() {
        var e = engine()
        _ = hold(&e, display: portrait, theta: 110, from: 0)
        #expect(e.orientation.interface == .portrait)
        #expect(e.posture?.tabletMode == false)
        // Tilted on a lap so far that the display reads landscape: the interface does not follow.
        _ = hold(&e, display: leftEdgeUp, theta: 110, from: 1)
        #expect(e.orientation.device == .landscapeRight)
        #expect(e.orientation.interface == .portrait)
        // Folded back into a tablet, held the same way: now it turns.
        fold(&e, display: leftEdgeUp, from: 110, to: 350, at: 2)
        _ = hold(&e, display: leftEdgeUp, theta: 350, from: 3)
        #expect(e.posture?.posture == .tablet)
        #expect(e.orientation.interface == .landscapeLeft)
    }

    @Test("Leaving tablet mode turns the interface back upright for the keyboard")
    func leavingTabletMode() {
        var e = engine()
        _ = hold(&e, display: leftEdgeUp, theta: 350, from: 0)
        #expect(e.orientation.interface == .landscapeLeft)
        fold(&e, display: leftEdgeUp, from: 350, to: 120, at: 1)
        let updates = hold(&e, display: leftEdgeUp, theta: 120, from: 2)
        #expect(e.orientation.interface == .portrait)
        #expect(updates.contains { $0.orientation?.interface == .portrait })
    }

    @Test("rotate-in = always turns in laptop posture too")
    func rotateAlways() {
        var e = engine(rotateIn: .always)
        _ = hold(&e, display: portrait, theta: 110, from: 0)
        _ = hold(&e, display: leftEdgeUp, theta: 110, from: 1)
        #expect(e.orientation.interface == .landscapeLeft)
    }

    @Test("Losing the base sensor makes the posture unknown and lets the display turn the screen")
    func baseLost() {
        var e = engine()
        _ = hold(&e, display: leftEdgeUp, theta: 110, from: 0)
        #expect(e.orientation.interface == .portrait)
        let update = e.postureSensorLost(time: 1)
        #expect(update.posture?.posture == .unknown)
        #expect(update.posture?.tabletMode == .some(nil))
        #expect(update.posture?.hingeAngle == .some(nil))
        #expect(update.orientation?.interface == .landscapeLeft)
        // Display-only samples afterwards change nothing on the posture side.
        let more = try! e.feed(AccelSample(time: 1.1, acceleration: leftEdgeUp))
        #expect(more.posture == nil)
    }

    @Test("The hinge angle is reported when it moves by a whole degree, not on every sample")
    func angleDeadband() {
        var e = engine()
        let updates = hold(&e, display: portrait, theta: 110, from: 0, seconds: 2)
        let angles = updates.compactMap { $0.posture?.hingeAngle }
        #expect(angles == [.some(110)])
    }

    @Test("Near a half degree the angle is reported once; at the ends it reaches 0 and 360", arguments: [
        (from: 45.3, settle: 45.3, then: 45.7, expected: [45.0]),
        (from: 300, settle: 358.6, then: 359.9, expected: [359, 360]),
        (from: 60, settle: 1.4, then: 0.1, expected: [1, 0]),
    ])
    func angleHysteresis(from: Double, settle: Double, then: Double, expected: [Double]) {
        var e = engine()
        // Folded there, so that continuity places the angles near the wrap on the right side.
        var updates = fold(&e, display: portrait, from: from, to: settle, at: 0)
        updates += hold(&e, display: portrait, theta: settle, from: 1, seconds: 2)
        updates += hold(&e, display: portrait, theta: then, from: 3, seconds: 2)
        let angles = updates.compactMap { $0.posture?.hingeAngle }.compactMap { $0 }
        #expect(angles.suffix(expected.count) == ArraySlice(expected))
        #expect(angles.last == expected.last)
        #expect(Set(angles).count == angles.count, "each angle once: \(angles)")
    }

    @Test("Bad base readings (on every sample, so on the one that commits) lose no display change")
    func badBaseKeepsDisplayChange() throws {
        var e = engine()
        var commits: [OrientationEngine.Change] = []
        for i in 0..<25 {
            let base = Vector3(.nan, 0, 0)
            if let change = try e.feed(AccelSample(time: Double(i) / 50, acceleration: portrait, base: base)).orientation {
                commits.append(change)
            }
        }
        #expect(commits.first?.device == .portrait)
        #expect(e.orientation.device == .portrait)
    }
}
