import OrientCore

/// The convertible scenarios the posture defaults are tuned and tested against.
public enum FoldLibrary {
    /// Every scenario at one rate, with the sensors' noise, bias and mountings drawn from `seed`. With a
    /// `hingeSensor`, each timeline as a machine with that sensor and no base accelerometer would read it: the
    /// display's readings the same as with two accelerometers.
    public static func all(rate: Double, seed: UInt64, hingeSensor: FoldHingeSensor? = nil) -> [FoldScenario] {
        var random = SeededRandom(seed: seed &* 104_729 &+ UInt64(rate))
        func wobble(_ degrees: Double) -> Wobble { .hand(degrees, using: &random) }
        func sensor() -> SensorModel {
            var model = SensorModel()
            model.noise = random.uniform(0.03...0.15)
            model.bias = Vector3(
                random.uniform(-0.2...0.2), random.uniform(-0.2...0.2), random.uniform(-0.2...0.2))
            model.mounting = ScenarioLibrary.mountings.randomElement(using: &random)!
            // Published as most hwdb entries are, half the time: z row negated (determinant -1).
            if random.uniform(0...1) < 0.5 {
                let m = model.mounting.rows
                model.published = MountMatrix(x: m.x, y: m.y, z: m.z * -1)
            }
            return model
        }
        let laptop = FoldPose.onDesk(random.uniform(100...125))
        let lap = FoldPose(display: Pose(angle: random.uniform(-8...8), tilt: laptop.hinge - 90 + 15), hinge: laptop.hinge)
        let tablet = FoldPose.tablet(angle: 0, tilt: random.uniform(20...45))
        let hz = (hingeSensor.map { "+\($0)" } ?? "") + "@\(Int(rate))Hz#\(seed)"
        let timelines: [(String, FoldPose, [FoldPiece])] = [
            ("opening-from-closed", .onDesk(0), [
                .hold(.onDesk(0), seconds: 2),
                .move(to: laptop, seconds: 1.2),
                .hold(laptop, seconds: 2),
            ]),
            ("typing-on-a-desk", laptop, [
                .hold(laptop, seconds: 1.5),
                .typing(laptop, seconds: 6, onLap: false),
                .hold(laptop, seconds: 1),
            ]),
            ("typing-on-a-lap", lap, [
                .hold(lap, seconds: 1.5, wobble: wobble(2)),
                .typing(lap, seconds: 6, onLap: true),
                .hold(lap, seconds: 1.5, wobble: wobble(2)),
            ]),
            ("folding-to-tablet-and-turning-it", laptop, [
                .hold(laptop, seconds: 1.5),
                .move(to: tablet, seconds: 1.2),
                .hold(tablet, seconds: 1.5, wobble: wobble(3)),
                .move(to: .tablet(angle: 90, tilt: 45), seconds: 0.7),
                .hold(.tablet(angle: 90, tilt: 45), seconds: 1.5, wobble: wobble(3)),
                .move(to: .tablet(angle: 180, tilt: 35), seconds: 0.7),
                .hold(.tablet(angle: 180, tilt: 35), seconds: 1.5, wobble: wobble(3)),
                .move(to: .tablet(angle: 270, tilt: 45), seconds: 0.7),
                .hold(.tablet(angle: 270, tilt: 45), seconds: 1.5, wobble: wobble(3)),
                .move(to: tablet, seconds: 0.7),
                .hold(tablet, seconds: 1.5, wobble: wobble(3)),
                .move(to: laptop, seconds: 1.2),
                .hold(laptop, seconds: 1.5),
            ]),
            ("tent-and-stand", laptop, [
                .hold(laptop, seconds: 1.5),
                .move(to: .tent(), seconds: 1.5),
                .hold(.tent(), seconds: 2),
                .move(to: .stand(), seconds: 1.5),
                .hold(.stand(), seconds: 2),
                .move(to: laptop, seconds: 1.2),
                .hold(laptop, seconds: 1.5),
            ]),
            ("carried-while-walking", laptop, [
                .hold(laptop, seconds: 1.5),
                .walk(FoldPose(display: Pose(angle: 0, tilt: 10), hinge: laptop.hinge), seconds: 6),
                .hold(laptop, seconds: 1.5),
                .move(to: tablet, seconds: 1.2),
                .hold(tablet, seconds: 1.5),
                .walk(tablet, seconds: 6),
                .hold(tablet, seconds: 1.5),
            ]),
            ("held-as-a-book", tablet, [
                .hold(tablet, seconds: 1.5, wobble: wobble(3)),
                .move(to: FoldPose(display: Pose(angle: 90, tilt: 5), hinge: 360), seconds: 0.8),
                .book(FoldPose(display: Pose(angle: 90, tilt: 5), hinge: 250), seconds: 6, wobble: wobble(8)),
                .book(FoldPose(display: Pose(angle: 90, tilt: 5), hinge: 360), seconds: 2, wobble: wobble(8)),
                .move(to: tablet, seconds: 0.8),
                .hold(tablet, seconds: 1.5, wobble: wobble(3)),
            ]),
            ("set-down-flat", laptop, [
                .hold(laptop, seconds: 1.5),
                .move(to: FoldPose(display: Pose(angle: 0, tilt: 90), hinge: 180), seconds: 1.5),
                .hold(FoldPose(display: Pose(angle: 0, tilt: 90), hinge: 180), seconds: 2),
                .move(to: laptop, seconds: 1.2),
                .hold(laptop, seconds: 1.5),
            ]),
        ]
        return timelines.map { name, start, pieces in
            FoldScenario.make(name + hz, rate: rate, start: start, pieces: pieces, display: sensor(), base: sensor(),
                              hingeSensor: hingeSensor, seed: random.next())
        }
    }
}
