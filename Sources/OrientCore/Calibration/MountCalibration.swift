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

/// One pose that did not fit the matrix, read through it.
public struct PoseCheck: Sendable, Equatable {
    public var pose: CalibrationPose
    /// Gravity in the device frame in this pose, through the matrix, as a unit vector.
    public var reading: Vector3
    /// Degrees between ``reading`` and the nearest direction the pose allows.
    public var error: Double
    public var passed: Bool
}

/// A sensor's mount matrix as measured in the poses, and how the remaining poses checked it.
public struct SensorCalibration: Sendable, Equatable {
    /// The rotation fitted to the two poses, to three decimals.
    public var measured: MountMatrix
    /// What to use: the nearest axis-aligned rotation when ``snapped``, else ``measured``.
    public var matrix: MountMatrix
    public var snapped: Bool
    /// Degrees from ``measured`` to the nearest axis-aligned rotation.
    public var degreesFromAxes: Double
    /// The poses not used to fit the matrix, in the order they were made.
    public var checks: [PoseCheck]

    public var passed: Bool { checks.allSatisfy(\.passed) }
}

/// The mount matrices from the gravity directions measured in the ``CalibrationPlan``'s poses (each sensor's own
/// frame).
///
/// Which poses fix a matrix, and which check it:
/// - A tablet's display: upright and left edge up fix it; upside down and lying flat (it must read face up) check it.
/// - A convertible's base: upright and left edge up (it lies flat on the table, then stands on its right side);
///   folded into a tablet it must read keys down.
/// - A convertible's display: standing open it leans back by however far the lid is opened beyond 90°, which is
///   not known, so left edge up and folded flat (exactly face up) fix it, and standing open checks it: it must read
///   upright, leaning back between 0 and ``CalibrationTolerances/maximumLean`` degrees.
public enum MountCalibration {
    /// `nil` when a pose is missing or two of them are nearly parallel.
    public static func display(
        _ poses: [CalibrationPose: Vector3], convertible: Bool, tolerances: CalibrationTolerances = .init()
    ) -> SensorCalibration? {
        let plan = CalibrationPlan.poses(convertible: convertible)
        if convertible {
            return calibrate(poses, plan: plan, fitting: (.leftEdgeUp, .flat), gravity: { $0.displayGravity }, tolerances) {
                pose, reading in
                pose == .upright ? leanError(reading, tolerances: tolerances) : reading.degrees(to: pose.displayGravity)
            }
        }
        return calibrate(poses, plan: plan, fitting: (.upright, .leftEdgeUp), gravity: { $0.displayGravity }, tolerances) {
            pose, reading in reading.degrees(to: pose.displayGravity)
        }
    }

    /// A convertible's base sensor, in the frame the posture code uses.
    public static func base(
        _ poses: [CalibrationPose: Vector3], tolerances: CalibrationTolerances = .init()
    )
        -> SensorCalibration?
    {
        calibrate(
            poses, plan: CalibrationPlan.poses(convertible: true), fitting: (.upright, .leftEdgeUp),
            gravity: { $0.baseGravity }, tolerances
        ) { pose, reading in reading.degrees(to: pose.baseGravity ?? .zero) }
    }

    private static func calibrate(
        _ poses: [CalibrationPose: Vector3], plan: [CalibrationPose], fitting pair: (CalibrationPose, CalibrationPose),
        gravity: (CalibrationPose) -> Vector3?, _ tolerances: CalibrationTolerances,
        checkError: (CalibrationPose, Vector3) -> Double
    ) -> SensorCalibration? {
        guard plan.allSatisfy({ poses[$0] != nil }), let first = poses[pair.0], let second = poses[pair.1],
            let firstGravity = gravity(pair.0), let secondGravity = gravity(pair.1),
            let fitted = MountMatrix.fitting(
                GravityCorrespondence(sensor: first, device: firstGravity),
                GravityCorrespondence(sensor: second, device: secondGravity))
        else { return nil }
        let (matrix, snapped) = fitted.snappedToAxes(within: tolerances.snap)
        let used = snapped ? matrix : fitted.rounded(places: 3)
        let checks = plan.filter { $0 != pair.0 && $0 != pair.1 }.compactMap { pose in
            poses[pose].map { measured in
                let reading = used.apply(measured).normalized ?? .zero
                let error = checkError(pose, reading)
                return PoseCheck(pose: pose, reading: reading, error: error, passed: error <= tolerances.check)
            }
        }
        return SensorCalibration(
            measured: fitted.rounded(places: 3), matrix: used, snapped: snapped,
            degreesFromAxes: fitted.degrees(from: fitted.nearestAxisAligned), checks: checks)
    }

    /// Degrees from `g` (the display standing open) to the nearest upright reading leaning back by 0 to
    /// `maximumLean` degrees about the hinge.
    static func leanError(_ g: Vector3, tolerances: CalibrationTolerances) -> Double {
        let lean = Double.atan2(y: -g.z, x: -g.y) * 180 / .pi
        let allowed = min(max(lean, 0), tolerances.maximumLean) * .pi / 180
        return g.degrees(to: Vector3(0, -Double.cos(allowed), -Double.sin(allowed)))
    }
}
