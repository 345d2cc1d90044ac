import Foundation
import OrientCore
import OrientScenarios
import PropertyBased
import Testing

/// The matrices measured from gravity in the calibration poses, for sensors mounted in every axis-aligned rotation.
@Suite("Mount calibration")
struct MountCalibrationTests {
    static let rotations = MountMatrix.axisAlignedRotations

    /// What a sensor mounted as `matrix` reads when the device frame reads `device`: Mᵀ · device, as M is a rotation.
    static func sensorReading(_ device: Vector3, mountedAs matrix: MountMatrix) -> Vector3 {
        matrix.rows.x * device.x + matrix.rows.y * device.y + matrix.rows.z * device.z
    }

    /// `v` turned by `degrees` about `axis` (Rodrigues).
    static func rotate(_ v: Vector3, about axis: Vector3, degrees: Double) -> Vector3 {
        guard let k = axis.normalized else { return v }
        let a = degrees * .pi / 180
        return v * cos(a) + k.cross(v) * sin(a) + k * (k.dot(v) * (1 - cos(a)))
    }

    /// The display's gravity when a convertible stands open at `hinge` degrees (leaning back by hinge - 90).
    static func standingOpen(hinge: Double) -> Vector3 {
        HingeGeometry.display(fromBase: Vector3(0, 0, -1), hingeAngle: hinge)
    }

    static func poses(
        _ gravity: [CalibrationPose: Vector3], mountedAs matrix: MountMatrix, g: Double = 9.81
    )
        -> [CalibrationPose: Vector3]
    {
        gravity.mapValues { sensorReading($0 * g, mountedAs: matrix) }
    }

    static let tabletGravity = Dictionary(
        uniqueKeysWithValues: CalibrationPlan.poses(convertible: false).map { ($0, $0.displayGravity) })

    @Test("There are 24 axis-aligned rotations, all distinct, all proper")
    func twentyFour() {
        #expect(Self.rotations.count == 24)
        #expect(Set(Self.rotations).count == 24)
        #expect(Self.rotations.allSatisfy { $0.isRotation() && $0.determinant == 1 })
        #expect(Self.rotations.contains(.identity))
    }

    @Test(
        "A tablet: each of the 24 mountings is measured exactly from upright and left edge up; upside down and flat check it",
        arguments: 0..<24)
    func tablet(_ index: Int) throws {
        let mounting = Self.rotations[index]
        let result = try #require(
            MountCalibration.display(Self.poses(Self.tabletGravity, mountedAs: mounting), convertible: false))
        #expect(result.matrix == mounting)
        #expect(result.snapped)
        #expect(result.degreesFromAxes < 1e-4)
        #expect(result.checks.map(\.pose) == [.upsideDown, .flat])
        #expect(result.passed && result.checks.allSatisfy { $0.error < 1e-6 })
        // The measured matrix turns every pose's reading back into the device frame's gravity.
        for (pose, gravity) in Self.tabletGravity {
            let reading = result.matrix.apply(Self.sensorReading(gravity, mountedAs: mounting))
            #expect((reading - gravity).length < 1e-9, "\(pose)")
        }
    }

    @Test("A convertible: display and base in different mountings, the lid open 90 to 150 degrees", arguments: 0..<24)
    func convertible(_ index: Int) throws {
        let display = Self.rotations[index]
        let base = Self.rotations[(index * 7 + 5) % 24]
        let hinge = 90 + Double(index % 5) * 15
        let displayGravity: [CalibrationPose: Vector3] = [
            .upright: Self.standingOpen(hinge: hinge), .leftEdgeUp: Vector3(1, 0, 0), .flat: Vector3(0, 0, -1),
        ]
        // Folded into a tablet: the base reads face down.
        let baseGravity: [CalibrationPose: Vector3] = [
            .upright: Vector3(0, 0, -1), .leftEdgeUp: Vector3(1, 0, 0), .flat: Vector3(0, 0, 1),
        ]
        let displayResult = try #require(
            MountCalibration.display(Self.poses(displayGravity, mountedAs: display), convertible: true))
        #expect(displayResult.matrix == display)
        #expect(displayResult.checks.map(\.pose) == [.upright])
        #expect(displayResult.passed, "lean \(hinge - 90)°: \(displayResult.checks)")
        let baseResult = try #require(MountCalibration.base(Self.poses(baseGravity, mountedAs: base)))
        #expect(baseResult.matrix == base)
        #expect(baseResult.passed)
    }

    @Test("The base frame is the posture code's: the hinge angle from the calibrated matrices reads the true opening")
    func baseFrameMatchesPosture() throws {
        let display = Self.rotations[9]
        let base = Self.rotations[17]
        let displayResult = try #require(
            MountCalibration.display(
                Self.poses(
                    [
                        .upright: Self.standingOpen(hinge: 110), .leftEdgeUp: Vector3(1, 0, 0),
                        .flat: Vector3(0, 0, -1),
                    ], mountedAs: display), convertible: true))
        let baseResult = try #require(
            MountCalibration.base(
                Self.poses(
                    [
                        .upright: Vector3(0, 0, -1), .leftEdgeUp: Vector3(1, 0, 0), .flat: Vector3(0, 0, 1),
                    ], mountedAs: base)))
        // A laptop open at 125° on a desk, read through the calibrated matrices.
        let displayReading = Self.sensorReading(Self.standingOpen(hinge: 125), mountedAs: display)
        let baseReading = Self.sensorReading(Vector3(0, 0, -1), mountedAs: base)
        let angle = HingeGeometry.angle(
            display: displayResult.matrix.apply(displayReading), base: baseResult.matrix.apply(baseReading))
        #expect(abs(angle - 125) < 1e-6)
    }

    @Test("Poses held a few degrees off square, and magnitudes off by 5 %, still give the exact axis-aligned matrix")
    func noise() async {
        let errors = Gen.double(in: -4...4)
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...23), errors.array(of: 8), Gen.double(in: 0.95...1.05), Gen.bool
        ) { index, tilts, scale, convertible in
            let mounting = Self.rotations[index]
            let axes = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
            var gravity = Self.tabletGravity
            if convertible { gravity[.upright] = Self.standingOpen(hinge: 120) }
            for (offset, pose) in CalibrationPose.allCases.enumerated() {
                let tilted = Self.rotate(gravity[pose]!, about: axes[offset % 3], degrees: tilts[2 * offset])
                gravity[pose] = Self.rotate(tilted, about: axes[(offset + 1) % 3], degrees: tilts[2 * offset + 1])
            }
            let result = MountCalibration.display(
                Self.poses(gravity, mountedAs: mounting, g: 9.81 * scale), convertible: convertible)
            #expect(result?.matrix == mounting)
            #expect(result?.snapped == true)
            #expect(result?.passed == true)
        }
    }

    @Test("A sensor mounted at an angle is measured, not snapped, to within a degree")
    func unsnapped() throws {
        // 30° about the screen's normal from the identity: no axis-aligned rotation is within the snap tolerance.
        let c = cos(Double.pi / 6)
        let s = sin(Double.pi / 6)
        let mounting = MountMatrix(x: Vector3(c, -s, 0), y: Vector3(s, c, 0), z: Vector3(0, 0, 1))
        let result = try #require(
            MountCalibration.display(Self.poses(Self.tabletGravity, mountedAs: mounting), convertible: false))
        #expect(!result.snapped)
        #expect(abs(result.degreesFromAxes - 30) < 1e-6)
        #expect(result.matrix.degrees(from: mounting) < 1)
        #expect(result.matrix.text == "0.866, -0.5, 0; 0.5, 0.866, 0; 0, 0, 1")
        #expect(result.passed)
    }

    @Test("Pose 2 on the wrong edge (right edge up) gives a matrix that lying flat catches: it reads face down")
    func wrongEdgeCaught() throws {
        var gravity = Self.tabletGravity
        gravity[.leftEdgeUp] = Vector3(-1, 0, 0)
        let result = try #require(
            MountCalibration.display(Self.poses(gravity, mountedAs: Self.rotations[3]), convertible: false))
        #expect(!result.passed)
        #expect(result.checks.map(\.passed) == [true, false], "upside down still fits; flat does not")
        let flat = try #require(result.checks.last)
        #expect(flat.reading.z > 0.99, "face down: \(flat.reading)")
        #expect(abs(flat.error - 180) < 1e-6)
    }

    @Test("A convertible's display that stood leaning forward, or more than 60 degrees back, fails its check")
    func leanChecked() throws {
        for (hinge, passes) in [(55.0, false), (75.0, true), (150.0, true), (175.0, false)] {
            let gravity: [CalibrationPose: Vector3] = [
                .upright: Self.standingOpen(hinge: hinge), .leftEdgeUp: Vector3(1, 0, 0), .flat: Vector3(0, 0, -1),
            ]
            let result = try #require(
                MountCalibration.display(Self.poses(gravity, mountedAs: .identity), convertible: true))
            #expect(result.passed == passes, "hinge \(hinge): \(result.checks)")
        }
    }

    @Test("Two poses that are nearly the same direction fix no matrix; a missing pose neither")
    func degenerate() {
        var gravity = Self.tabletGravity
        gravity[.leftEdgeUp] = Self.rotate(Vector3(0, -1, 0), about: Vector3(0, 0, 1), degrees: 3)
        #expect(MountCalibration.display(Self.poses(gravity, mountedAs: .identity), convertible: false) == nil)
        gravity[.leftEdgeUp] = nil
        #expect(MountCalibration.display(gravity, convertible: false) == nil)
        #expect(
            MountMatrix.fitting(
                GravityCorrespondence(sensor: .zero, device: Vector3(1, 0, 0)),
                GravityCorrespondence(sensor: Vector3(0, 1, 0), device: Vector3(0, 1, 0))) == nil)
    }

    @Test("Two directions 80 degrees apart for a quarter turn: the 10 degree error is split, 5 degrees to each")
    func errorSplit() throws {
        let first = Vector3(0, -1, 0)
        let second = Self.rotate(Vector3(1, 0, 0), about: Vector3(0, 0, 1), degrees: -10)
        #expect(abs(first.degrees(to: second) - 80) < 1e-9)
        let matrix = try #require(
            MountMatrix.fitting(
                GravityCorrespondence(sensor: first, device: Vector3(0, -1, 0)),
                GravityCorrespondence(sensor: second, device: Vector3(1, 0, 0))))
        #expect(matrix.isRotation(tolerance: 1e-9))
        #expect(abs(matrix.apply(first).degrees(to: Vector3(0, -1, 0)) - 5) < 1e-9)
        #expect(abs(matrix.apply(second).degrees(to: Vector3(1, 0, 0)) - 5) < 1e-9)
    }

    @Test("A base that lay keys down in pose 1 (a stand, not a laptop), or opened flat in pose 3: folded flat catches it")
    func baseKeysDown() throws {
        let base = Self.rotations[13]
        // As a stand at 290°, the display reads as it does open at 110° on the table; the base lies keys down.
        let stand = FoldPose.stand(290).readings(gravity: 1).base
        let standFirst: [CalibrationPose: Vector3] = [.upright: stand, .leftEdgeUp: Vector3(1, 0, 0), .flat: Vector3(0, 0, 1)]
        let fromStand = try #require(MountCalibration.base(Self.poses(standFirst, mountedAs: base)))
        #expect(fromStand.matrix != base)
        #expect(!fromStand.passed, "\(fromStand.checks)")
        let openedFlat: [CalibrationPose: Vector3] = [
            .upright: Vector3(0, 0, -1), .leftEdgeUp: Vector3(1, 0, 0), .flat: Vector3(0, 0, -1),
        ]
        let result = try #require(MountCalibration.base(Self.poses(openedFlat, mountedAs: base)))
        #expect(result.matrix == base)
        #expect(!result.passed)
    }
}
