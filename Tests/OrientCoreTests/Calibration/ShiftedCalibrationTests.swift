import OrientCore
import OrientScenarios
import PropertyBased
import Testing

/// A session that takes one pose too early (the device set down still before pose 1) reads every pose one step
/// late. The plan must turn that into a failed check, never a matrix that passes.
@Suite("Calibration poses shifted by one")
struct ShiftedCalibrationTests {
    static let rotations = MountMatrix.axisAlignedRotations
    static let reading = MountCalibrationTests.sensorReading

    /// The readings of `made` (device-frame gravity, one per pose made) given to the plan's poses in order.
    static func taken(_ made: [Vector3], mountedAs mounting: MountMatrix, convertible: Bool) -> [CalibrationPose: Vector3] {
        let plan = CalibrationPlan.poses(convertible: convertible)
        return Dictionary(uniqueKeysWithValues: zip(plan, made.map { reading($0 * 9.81, mounting) }))
    }

    @Test("Three perpendicular poses shifted by one fit a rotation a third of a turn off, and the third pose agrees")
    func threePosesCannotTell() throws {
        let (upright, leftEdgeUp, flat) = (Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, -1))
        for mounting in Self.rotations {
            // Lying flat taken as upright, upright as left edge up; left edge up then stands in for the check.
            let fitted = try #require(
                MountMatrix.fitting(
                    GravityCorrespondence(sensor: Self.reading(flat, mounting), device: upright),
                    GravityCorrespondence(sensor: Self.reading(upright, mounting), device: leftEdgeUp)))
            #expect(fitted.apply(Self.reading(leftEdgeUp, mounting)).degrees(to: flat) < 1e-6)
            #expect(abs(fitted.degrees(from: mounting) - 120) < 1e-6)
        }
    }

    /// Directions a device may have been set down in before pose 1: the six faces and edges, and between them.
    static let firstPoses: [Vector3] = {
        var directions: [Vector3] = []
        for x in [-1.0, 0, 1] {
            for y in [-1.0, 0, 1] {
                for z in [-1.0, 0, 1] where x != 0 || y != 0 || z != 0 { directions.append(Vector3(x, y, z)) }
            }
        }
        return directions
    }()

    @Test("A tablet: every mounting, any pose taken first, the four poses shifted by one fail a check", arguments: 0..<24)
    func tabletShifted(_ index: Int) {
        let mounting = Self.rotations[index]
        let made = CalibrationPlan.poses(convertible: false).map(\.displayGravity)
        for first in Self.firstPoses {
            let poses = Self.taken([first] + made.dropLast(), mountedAs: mounting, convertible: false)
            let result = MountCalibration.display(poses, convertible: false)
            #expect(result?.passed != true, "set down at \(first) first: \(String(describing: result))")
        }
    }

    @Test("A tablet: a pose taken first anywhere on the sphere, a little off square, never passes")
    func tabletShiftedAnywhere() async {
        let axis = Gen.double(in: -1...1)
        await propertyCheck(count: 500, input: Gen.int(in: 0...23), axis.array(of: 3), Gen.double(in: -5...5)) {
            index, first, tilt in
            let mounting = Self.rotations[index]
            let made = CalibrationPlan.poses(convertible: false).map {
                MountCalibrationTests.rotate($0.displayGravity, about: Vector3(1, 1, 0), degrees: tilt)
            }
            let start = Vector3(first[0], first[1], first[2])
            let poses = Self.taken([start] + made.dropLast(), mountedAs: mounting, convertible: false)
            #expect(MountCalibration.display(poses, convertible: false)?.passed != true, "first \(start)")
        }
    }

    /// Where a convertible may have rested before pose 1.
    static let convertibleFirstPoses: [FoldPose] = [
        .tablet(angle: 0, tilt: 90), .onDesk(180), .onDesk(100), .stand(), .tent(),
        FoldPose(display: Pose(angle: 90), hinge: 110), FoldPose(display: Pose(angle: 270), hinge: 110),
        FoldPose(display: Pose(angle: 0, tilt: -90), hinge: 360),
    ]

    @Test("A convertible: every mounting, any pose taken first, its two sensors never both pass", arguments: 0..<24)
    func convertibleShifted(_ index: Int) {
        let display = Self.rotations[index]
        let base = Self.rotations[(index * 7 + 5) % 24]
        let made: [FoldPose] = [.onDesk(110), FoldPose(display: Pose(angle: 90), hinge: 110), .tablet(angle: 0, tilt: 90)]
        for first in Self.convertibleFirstPoses {
            let shifted = [first] + made.dropLast()
            let displayPoses = Self.taken(shifted.map { $0.readings(gravity: 1).display }, mountedAs: display, convertible: true)
            let basePoses = Self.taken(shifted.map { $0.readings(gravity: 1).base }, mountedAs: base, convertible: true)
            let displayResult = MountCalibration.display(displayPoses, convertible: true)
            let baseResult = MountCalibration.base(basePoses)
            #expect(
                !(displayResult?.passed == true && baseResult?.passed == true),
                "set down as \(first) first: \(String(describing: displayResult)), \(String(describing: baseResult))")
        }
    }
}
