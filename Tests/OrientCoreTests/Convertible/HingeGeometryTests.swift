import OrientCore
import Testing

@Suite("Hinge geometry")
struct HingeGeometryTests {
    let g = 9.80665

    @Test("A laptop open at 90° on a desk: base (0, 0, -g), display (0, -g, 0)")
    func laptopOnDesk() {
        let base = Vector3(0, 0, -g)
        let display = HingeGeometry.display(fromBase: base, hingeAngle: 90)
        #expect(abs(display.y + g) < 1e-9 && abs(display.z) < 1e-9)
        #expect(abs(HingeGeometry.angle(display: Vector3(0, -g, 0), base: base) - 90) < 1e-9)
    }

    @Test("Opened flat, both frames coincide; closed, the screen faces the keys")
    func flatAndClosed() {
        let base = Vector3(0.3, -2, -9.5)
        let flat = HingeGeometry.display(fromBase: base, hingeAngle: 180)
        #expect((flat - base).length < 1e-9)
        let closed = HingeGeometry.display(fromBase: Vector3(0, 0, -g), hingeAngle: 0)
        #expect(abs(closed.z - g) < 1e-9, "closed on a desk, the screen faces down")
    }

    @Test("The angle is read back from any attitude where gravity is off the hinge",
          arguments: [5.0, 45, 90, 135, 179, 181, 200, 270, 300, 355])
    func roundTrip(theta: Double) {
        // Attitudes of the display: upright, leaning, rotated in its plane, upside down, lying.
        let displays = [
            Vector3(0, -g, 0), Vector3(0, -7, -6.8), Vector3(3, -8, -4.6), Vector3(-5, 7, -5.9), Vector3(1, 0.5, 9.7),
        ]
        for display in displays {
            let base = HingeGeometry.base(fromDisplay: display, hingeAngle: theta)
            #expect(abs(HingeGeometry.angle(display: display, base: base) - theta) < 1e-6, "from \(display)")
        }
    }

    @Test("Elevation from the hinge: 0° along x, 90° across it")
    func elevation() {
        #expect(HingeGeometry.elevationFromHinge(Vector3(g, 0, 0)) < 1e-9)
        #expect(abs(HingeGeometry.elevationFromHinge(Vector3(-g, 0, 0))) < 1e-9)
        #expect(abs(HingeGeometry.elevationFromHinge(Vector3(0, 0, -g)) - 90) < 1e-9)
        #expect(abs(HingeGeometry.elevationFromHinge(Vector3(1, 1, 0)) - 45) < 1e-9)
    }

    @Test("Angles are normalised into [0, 360)")
    func normalised() {
        #expect(HingeGeometry.normalized(-10) == 350)
        #expect(HingeGeometry.normalized(360) == 0)
        #expect(HingeGeometry.normalized(725) == 5)
    }
}
