import OrientCore
import Testing

/// The posture engine fed by a kernel hinge sensor (Intel's `hinge`, cros-ec-lid-angle), with and without a base
/// accelerometer.
@Suite("Kernel hinge sensor in the engine")
struct KernelHingeEngineTests {
    let g = 9.80665

    /// A laptop's display leaning back, hinge level: both sensors can read θ.
    var displayUpright: Vector3 { Vector3(0, -g * 0.94, -g * 0.34) }
    /// Gravity along the hinge (a book held upright): two accelerometers cannot read θ.
    var hingeVertical: Vector3 { Vector3(-g, 0, 0) }

    func hingeOnly() throws -> ConvertibleEngine {
        try EngineConfiguration().makeEngine(displayMatrix: .identity, baseMatrix: nil, hasHinge: true)
    }

    /// Feeds `seconds` at 10 Hz (the Intel sensor's rate) of the display at `display` and the kernel's `angle`,
    /// with a base reading matching `baseAt` when given; returns the posture changes.
    @discardableResult
    func hold(
        _ engine: inout ConvertibleEngine, display: Vector3, kernel: KernelHingeAngle?, baseAt: Double? = nil,
        from t0: Double, seconds: Double = 1
    ) throws -> [PostureEngine.Change] {
        try (0..<Int(seconds * 10)).compactMap { i in
            let base = baseAt.map { HingeGeometry.base(fromDisplay: display, hingeAngle: $0) }
            let sample = AccelSample(time: t0 + Double(i) / 10, acceleration: display, base: base, hinge: kernel)
            return try engine.feed(sample).posture
        }
    }

    @Test("With a hinge sensor alone the engine has a posture side, and with neither it has none")
    func engineShape() throws {
        #expect(try hingeOnly().posture != nil)
        #expect(try hingeOnly().rotateIn == .tabletMode)
        #expect(try EngineConfiguration().makeEngine(displayMatrix: .identity, baseMatrix: nil).posture == nil)
    }

    @Test("A fold read by the kernel in whole degrees: laptop, then tablet, and tablet mode on, angles as read")
    func fold() throws {
        var engine = try hingeOnly()
        try hold(&engine, display: displayUpright, kernel: .degrees(100), from: 0)
        #expect(engine.posture?.posture == .laptop)
        #expect(engine.posture?.tabletMode == false)
        #expect(engine.posture?.reportedAngle == 100)
        try hold(&engine, display: displayUpright, kernel: .degrees(350), from: 1)
        #expect(engine.posture?.posture == .tablet)
        #expect(engine.posture?.tabletMode == true)
        #expect(engine.posture?.hingeAngle == 350)
    }

    @Test("The kernel reads the hinge where two accelerometers cannot: gravity along the hinge")
    func hingeAxisVertical() throws {
        var kernel = try hingeOnly()
        try hold(&kernel, display: hingeVertical, kernel: .degrees(120), from: 0)
        #expect(kernel.posture?.posture == .laptop)

        var accelerometers = try EngineConfiguration().makeEngine(displayMatrix: .identity, baseMatrix: .identity)
        try hold(&accelerometers, display: hingeVertical, kernel: nil, baseAt: 120, from: 0)
        #expect(accelerometers.posture?.posture == .unknown)
        #expect(accelerometers.posture?.hingeAngle == nil)
    }

    @Test("Unknown (cros-ec's 500) changes nothing, however long, and the next angle moves it again")
    func unknownHolds() throws {
        var engine = try hingeOnly()
        try hold(&engine, display: displayUpright, kernel: .degrees(350), from: 0)
        #expect(engine.posture?.posture == .tablet)
        let during = try hold(&engine, display: displayUpright, kernel: .unknown, from: 1, seconds: 3)
        #expect(engine.posture?.posture == .tablet)
        #expect(engine.posture?.tabletMode == true)
        #expect(during.allSatisfy { $0.posture == nil && $0.tabletMode == nil })
        try hold(&engine, display: displayUpright, kernel: .degrees(100), from: 4)
        #expect(engine.posture?.posture == .laptop)
        #expect(engine.posture?.tabletMode == false)
    }

    @Test("With a base accelerometer too, the kernel's angle drives")
    func kernelWins() throws {
        var engine = try EngineConfiguration().makeEngine(displayMatrix: .identity, baseMatrix: .identity, hasHinge: true)
        try hold(&engine, display: displayUpright, kernel: .degrees(350), baseAt: 100, from: 0)
        #expect(engine.posture?.posture == .tablet)
        #expect(engine.posture?.hingeAngle == 350)
    }

    @Test("Beyond flat with no base sensor: the base's face, turned back from the display by θ, tells stand from tent")
    func standOrTent() throws {
        // θ 270° with the keys face down on the desk (base reads +z): a stand.
        let keysDown = Vector3(0, 0, g)
        var stand = try hingeOnly()
        try hold(&stand, display: HingeGeometry.display(fromBase: keysDown, hingeAngle: 270), kernel: .degrees(270), from: 0)
        #expect(stand.posture?.posture == .stand)
        // The same θ standing on the base's edge: a tent.
        let onEdge = Vector3(0, -g, 0)
        var tent = try hingeOnly()
        try hold(&tent, display: HingeGeometry.display(fromBase: onEdge, hingeAngle: 270), kernel: .degrees(270), from: 0)
        #expect(tent.posture?.posture == .tent)
    }

    @Test("Losing the hinge sensor makes posture, tablet mode and angle unknown")
    func lost() throws {
        var engine = try hingeOnly()
        try hold(&engine, display: displayUpright, kernel: .degrees(350), from: 0)
        let update = engine.postureSensorLost(time: 2)
        #expect(update.posture?.posture == .unknown)
        #expect(update.posture?.tabletMode == .some(nil))
        #expect(update.posture?.hingeAngle == .some(nil))
        #expect(engine.posture?.hingeAngle == nil)
    }
}
