import OrientCore

/// The scenarios the classifier's defaults are tuned and tested against.
public enum ScenarioLibrary {
    /// Rates the latency target applies to.
    public static let rates: [Double] = [10, 25, 50, 100, 200]

    /// Mountings seen in real devices: identity, the quarter turns, and a sensor mounted upside down.
    public static let mountings: [MountMatrix] = [
        .identity,
        MountMatrix(x: Vector3(0, -1, 0), y: Vector3(1, 0, 0), z: Vector3(0, 0, 1)),
        MountMatrix(x: Vector3(0, 1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1)),
        MountMatrix(x: Vector3(-1, 0, 0), y: Vector3(0, -1, 0), z: Vector3(0, 0, 1)),
        MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, -1, 0), z: Vector3(0, 0, -1)),
    ]

    /// A person using a tablet: deliberate turns between upright orientations, with tilt, wobble, noise, bias
    /// and a random mounting. Every turn ends with the hand at rest, so its latency can be measured.
    public static func session(rate: Double, seed: UInt64, turns: Int = 6) -> Scenario {
        var random = SeededRandom(seed: seed &* 7919 &+ UInt64(rate))
        var orientation = DeviceOrientation.upright.randomElement(using: &random)!
        var pose = Pose.upright(orientation, tilt: random.uniform(-10...45))
        let start = pose
        var pieces: [Piece] = [.hold(pose, seconds: random.uniform(2...3), wobble: .hand(4, using: &random))]
        for _ in 0..<turns {
            let halfTurn = random.uniform(0...1) < 0.15
            let step: Double = halfTurn ? 180 : (random.uniform(0...1) < 0.5 ? 90 : -90)
            let next = Pose(angle: pose.angle + step, tilt: random.uniform(-10...50))
            pieces.append(.rotate(to: next, seconds: random.uniform(0.35...0.9) * (halfTurn ? 1.4 : 1)))
            pieces.append(.hold(next, seconds: random.uniform(1.5...3), wobble: .hand(random.uniform(2...5), using: &random)))
            pose = next
            orientation = next.idealOrientation
        }
        var sensor = SensorModel()
        sensor.noise = random.uniform(0.03...0.15)
        sensor.bias = Vector3(random.uniform(-0.25...0.25), random.uniform(-0.25...0.25), random.uniform(-0.25...0.25))
        sensor.tremor = random.uniform(0.05...0.25)
        sensor.mounting = mountings.randomElement(using: &random)!
        return Scenario.make("session-\(seed)@\(Int(rate))Hz", rate: rate, start: start, pieces: pieces, sensor: sensor, seed: seed)
    }

    /// The hard cases, each named for what it checks.
    public static func special(rate: Double, seed: UInt64 = 1) -> [Scenario] {
        var random = SeededRandom(seed: seed)
        func wobble(_ degrees: Double) -> Wobble { .hand(degrees, using: &random) }
        let portrait = Pose.upright(.portrait, tilt: 20)
        var mirrored = SensorModel()
        mirrored.mounting = mountings[1]
        // Published the way most hwdb entries are: right x and y rows, z row negated (determinant -1).
        let m = mountings[1].rows
        mirrored.published = MountMatrix(x: m.x, y: m.y, z: m.z * -1)
        let hz = "@\(Int(rate))Hz"
        return [
            Scenario.make("table-then-picked-up" + hz, rate: rate, start: Pose(angle: 0, tilt: 90), pieces: [
                .hold(Pose(angle: 0, tilt: 90), seconds: 3),
                .rotate(to: portrait, seconds: 0.8),
                .hold(portrait, seconds: 2, wobble: wobble(3)),
            ], seed: seed),
            Scenario.make("face-down-and-back" + hz, rate: rate, start: portrait, pieces: [
                .hold(portrait, seconds: 2, wobble: wobble(3)),
                .rotate(to: Pose(angle: 0, tilt: -88), seconds: 0.8),
                .hold(Pose(angle: 0, tilt: -88), seconds: 2),
                .rotate(to: Pose(angle: 90, tilt: 10), seconds: 0.8),
                .hold(Pose(angle: 90, tilt: 10), seconds: 2, wobble: wobble(3)),
            ], seed: seed),
            Scenario.make("leaning-back-55-degrees" + hz, rate: rate, start: Pose(angle: 0, tilt: 55), pieces: [
                .hold(Pose(angle: 0, tilt: 55), seconds: 3, wobble: wobble(4)),
                .rotate(to: Pose(angle: 270, tilt: 55), seconds: 0.7),
                .hold(Pose(angle: 270, tilt: 55), seconds: 3, wobble: wobble(4)),
            ], seed: seed),
            Scenario.make("hovering-at-45-degrees" + hz, rate: rate, start: portrait, pieces: [
                .hold(Pose(angle: 35, tilt: 20), seconds: 2, wobble: wobble(2)),
                .hover(Pose(angle: 45, tilt: 20), seconds: 8, wobble: wobble(6), allowed: [.portrait]),
            ], seed: seed),
            Scenario.make("hovering-at-45-from-start" + hz, rate: rate, start: Pose(angle: 315, tilt: 15), pieces: [
                .hover(Pose(angle: 315, tilt: 15), seconds: 8, wobble: wobble(6), allowed: [.portrait, .landscapeLeft]),
            ], seed: seed),
            Scenario.make("shaken-in-portrait" + hz, rate: rate, start: portrait, pieces: [
                .hold(portrait, seconds: 2, wobble: wobble(3)),
                .shake(seconds: 2, amplitude: 14),
                .hold(portrait, seconds: 2, wobble: wobble(3)),
            ], seed: seed),
            Scenario.make("shaken-from-start" + hz, rate: rate, start: Pose(angle: 90, tilt: 10), pieces: [
                .shake(seconds: 2, amplitude: 14),
                .hold(Pose(angle: 90, tilt: 10), seconds: 2, wobble: wobble(3)),
            ], seed: seed),
            Scenario.make("walking" + hz, rate: rate, start: portrait, pieces: [
                .hold(portrait, seconds: 2, wobble: wobble(3)),
                .walk(portrait, seconds: 6),
                .rotate(to: Pose(angle: 90, tilt: 25), seconds: 0.6),
                .walk(Pose(angle: 90, tilt: 25), seconds: 6),
            ], seed: seed),
            Scenario.make("dropped-onto-table" + hz, rate: rate, start: portrait, pieces: [
                .hold(portrait, seconds: 2, wobble: wobble(3)),
                .drop(fallSeconds: 0.35, landing: Pose(angle: 0, tilt: 90)),
                .hold(Pose(angle: 0, tilt: 90), seconds: 2),
            ], seed: seed),
            Scenario.make("mirrored-hwdb-matrix" + hz, rate: rate, start: portrait, pieces: [
                .hold(portrait, seconds: 2, wobble: wobble(3)),
                .rotate(to: Pose(angle: 0, tilt: 88), seconds: 0.8),
                .hold(Pose(angle: 0, tilt: 88), seconds: 2),
            ], sensor: mirrored, seed: seed),
        ]
    }
}
