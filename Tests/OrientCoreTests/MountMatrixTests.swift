import OrientCore
import Testing

@Suite("Mount matrices")
struct MountMatrixTests {
    @Test("Parses the IIO text form, tolerating -0, missing spaces and trailing white space")
    func parse() throws {
        let m = try MountMatrix(parsing: "-0, -1, 0;1,0,0; 0, 0, 1 \n")
        #expect(m == MountMatrix(x: Vector3(0, -1, 0), y: Vector3(1, 0, 0), z: Vector3(0, 0, 1)))
        #expect(try MountMatrix(parsing: "") == .identity)
        #expect(try MountMatrix(parsing: "  ") == .identity)
        #expect(try MountMatrix(parsing: "0.5, 0, 0; 0, 1e0, 0; 0, 0, 1").rows.x.x == 0.5)
    }

    @Test("Malformed matrices are refused, naming the problem", arguments: [
        ("1, 0, 0; 0, 1, 0", "expected 3 rows"),
        ("1, 0; 0, 1, 0; 0, 0, 1", "row 1 has 2 values"),
        ("1, 0, 0; 0, one, 0; 0, 0, 1", "row 2: \"one\""),
        ("1, 0, 0; 0, 1, 0; 0, 0, 0", "row 3 is all zeros"),
        ("1, 0, 0; 0, 1, 0; 0, 0, nan", "not a finite number"),
        ("1,0 , 0; 0, 1, 0; 0, 0, 1,", "row 3 has 4 values"),
        ("1; 0, 1, 0; 0, 0, 1; 1", "found 4"),
    ])
    func malformed(text: String, message: String) {
        #expect {
            try MountMatrix(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("The text form round-trips")
    func roundTrip() throws {
        let m = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1))
        #expect(m.text == "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(try MountMatrix(parsing: m.text) == m)
    }

    @Test("Device axis i is row i · sensor vector")
    func apply() {
        let m = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1))
        #expect(m.apply(Vector3(1, 2, 3)) == Vector3(-2, -1, 3))
    }

    @Test("The handedness repair makes z = x × y and says whether it changed anything")
    func repair() {
        let mirrored = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1))
        #expect(mirrored.determinant == -1)
        let repair = mirrored.repairingHandedness()
        #expect(repair.changed)
        #expect(repair.repaired.rows.z == Vector3(0, 0, -1))
        #expect(repair.repaired.determinant == 1)
        #expect(!MountMatrix.identity.repairingHandedness().changed)
        let parallel = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(1, 0, 0), z: Vector3(0, 0, 1))
        #expect(parallel.repairingHandedness().isSingular)
    }

    @Test("The matrix in use: repaired when the repair can be made, the original when it is singular")
    func matrixInUse() {
        let mirrored = MountMatrix(x: Vector3(0, -1, 0), y: Vector3(-1, 0, 0), z: Vector3(0, 0, 1)).repairingHandedness()
        #expect(mirrored.isApplied && mirrored.repairedMirror)
        #expect(mirrored.inUse == mirrored.repaired)
        // A z row that is wrong but not mirrored (a zero row) is repaired without being a mirror image.
        let flat = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, 1, 0), z: Vector3(0, 0, 0)).repairingHandedness()
        #expect(flat.isApplied && !flat.repairedMirror)
        let parallel = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(1, 0, 0), z: Vector3(0, 0, -1))
        let singular = parallel.repairingHandedness()
        #expect(singular.changed && !singular.isApplied && !singular.repairedMirror)
        #expect(singular.inUse == parallel)
        let identity = MountMatrix.identity.repairingHandedness()
        #expect(!identity.isApplied && identity.inUse == .identity)
    }

    @Test("iio-sensor-proxy's conventions: raw readings at scale 9.81/256 with the identity matrix", arguments: [
        (Vector3(0, -256, 0), DeviceOrientation.portrait),
        (Vector3(256, 0, 0), .landscapeRight),
        (Vector3(-256, 0, 0), .landscapeLeft),
        (Vector3(0, 256, 0), .portraitUpsideDown),
        (Vector3(0, 0, -256), .faceUp),
        (Vector3(0, 0, 256), .faceDown),
    ])
    func ioSensorProxyConventions(raw: Vector3, expected: DeviceOrientation) throws {
        var engine = try OrientationEngine(tracker: InterfaceOrientationTracker())
        var committed: DeviceOrientation?
        for step in 0..<20 {
            let sample = AccelSample(time: Double(step) * 0.02, acceleration: raw * (9.81 / 256))
            if let change = try engine.feed(sample) { committed = change.device }
        }
        #expect(committed == expected)
    }
}
