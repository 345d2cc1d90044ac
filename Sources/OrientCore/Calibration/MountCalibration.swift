import RealModule

/// Tolerances of ``MountCalibration``, in degrees.
public struct CalibrationTolerances: Sendable, Equatable {
    /// A measured matrix this close to an axis-aligned rotation is taken to be it: poses held by hand or propped on
    /// a table are rarely squarer than this, and sensors are nearly always mounted square.
    public var snap: Double
    /// How far the check pose may read from where the matrix says it should.
    public var check: Double
    /// How far back a convertible's display may lean when it stands open (opened to 90° + this).
    public var maximumLean: Double

    public init(snap: Double = 10, check: Double = 20, maximumLean: Double = 60) {
        self.snap = snap
        self.check = check
        self.maximumLean = maximumLean
    }
}

/// A sensor's mount matrix as measured in the poses, and how the remaining pose checked it.
public struct SensorCalibration: Sendable, Equatable {
    /// The rotation fitted to the two poses, to three decimals.
    public var measured: MountMatrix
    /// What to use: the nearest axis-aligned rotation when ``snapped``, else ``measured``.
    public var matrix: MountMatrix
    public var snapped: Bool
    /// Degrees from ``measured`` to the nearest axis-aligned rotation.
    public var degreesFromAxes: Double
    /// The pose that was not used to fit the matrix.
    public var checkPose: CalibrationPose
    /// Gravity in the device frame at the check pose, through ``matrix``, as a unit vector.
    public var checkReading: Vector3
    /// Degrees between ``checkReading`` and the nearest direction that pose allows.
    public var checkError: Double
    public var passed: Bool
}

/// The mount matrices from the gravity directions measured in ``CalibrationPose``s (each sensor's own frame).
///
/// Which poses fix a matrix, and which checks it:
/// - A tablet's display: upright and left edge up fix it, lying flat checks it (it must read face up).
/// - A convertible's base: the same two (it lies flat on the table, then stands on its right side); lying flat
///   checks that its z axis is vertical (opened flat or folded, either way up).
/// - A convertible's display: standing open it leans back by however far the lid is opened beyond 90°, which is
///   not known, so left edge up and lying flat (exactly face up, opened flat or folded) fix it, and standing open
///   checks it: it must read upright, leaning back between 0 and ``CalibrationTolerances/maximumLean`` degrees.
public enum MountCalibration {
    /// `nil` when a pose is missing or two of them are nearly parallel.
    public static func display(
        _ poses: [CalibrationPose: Vector3], convertible: Bool, tolerances: CalibrationTolerances = .init()
    ) -> SensorCalibration? {
        if convertible {
            return calibrate(poses, fitting: (.leftEdgeUp, .flat), gravity: \.displayGravity, tolerances: tolerances) {
                leanError($0, tolerances: tolerances)
            }
        }
        return calibrate(poses, fitting: (.upright, .leftEdgeUp), gravity: \.displayGravity, tolerances: tolerances) {
            $0.degrees(to: CalibrationPose.flat.displayGravity)
        }
    }

    /// A convertible's base sensor, in the frame the posture code uses.
    public static func base(
        _ poses: [CalibrationPose: Vector3], tolerances: CalibrationTolerances = .init()
    )
        -> SensorCalibration?
    {
        calibrate(poses, fitting: (.upright, .leftEdgeUp), gravity: \.baseGravity, tolerances: tolerances) {
            min($0.degrees(to: Vector3(0, 0, -1)), $0.degrees(to: Vector3(0, 0, 1)))
        }
    }

    private static func calibrate(
        _ poses: [CalibrationPose: Vector3], fitting pair: (CalibrationPose, CalibrationPose),
        gravity: KeyPath<CalibrationPose, Vector3>, tolerances: CalibrationTolerances, checkError: (Vector3) -> Double
    ) -> SensorCalibration? {
        guard let first = poses[pair.0], let second = poses[pair.1],
            let checkPose = CalibrationPose.allCases.first(where: { $0 != pair.0 && $0 != pair.1 }),
            let check = poses[checkPose],
            let fitted = MountMatrix.fitting(
                GravityCorrespondence(sensor: first, device: pair.0[keyPath: gravity]),
                GravityCorrespondence(sensor: second, device: pair.1[keyPath: gravity]))
        else { return nil }
        let (matrix, snapped) = fitted.snappedToAxes(within: tolerances.snap)
        let used = snapped ? matrix : fitted.rounded(places: 3)
        let reading = (used.apply(check).normalized ?? .zero)
        let error = checkError(reading)
        return SensorCalibration(
            measured: fitted.rounded(places: 3), matrix: used, snapped: snapped,
            degreesFromAxes: fitted.degrees(from: fitted.nearestAxisAligned), checkPose: checkPose,
            checkReading: reading, checkError: error, passed: error <= tolerances.check)
    }

    /// Degrees from `g` (the display standing open) to the nearest upright reading leaning back by 0 to
    /// `maximumLean` degrees about the hinge.
    static func leanError(_ g: Vector3, tolerances: CalibrationTolerances) -> Double {
        let lean = Double.atan2(y: -g.z, x: -g.y) * 180 / .pi
        let allowed = min(max(lean, 0), tolerances.maximumLean) * .pi / 180
        return g.degrees(to: Vector3(0, -Double.cos(allowed), -Double.sin(allowed)))
    }
}
