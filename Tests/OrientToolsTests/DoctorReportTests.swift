import OrientCore
import OrientSampleSource
import OrientSensors
@testable import OrientTools
import Testing

@Suite("orientd doctor's reading of the events")
struct DoctorReportTests {
    private let g = 9.80665

    /// Two seconds at 50 Hz of `reading` (and `base`), after the sensor opened as `description`.
    private func events(_ description: SensorDescription, _ reading: Vector3, base: Vector3? = nil) -> [SensorEvent] {
        [.opened(description)]
            + (0..<100).map { .sample(AccelSample(time: Double($0) / 50, acceleration: reading, base: base)) }
    }

    @Test("A mirrored matrix is named with the one used, and the orientation comes through the repaired one")
    func mirroredMatrix() throws {
        // Left edge up is (+g, 0, 0) in the device frame; this mirror keeps x and y and flips z.
        let mirrored = try MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, -1")
        let description = SensorDescription(id: "iio:device0", name: "accel_3d", mode: .polled, mountMatrix: mirrored)
        var report = DoctorReport()
        report.analyse(events(description, Vector3(g, 0, 0)), reason: "the only one", seconds: 2, baseCandidate: nil)
        #expect(report.device == "landscape-right")
        #expect(report.interface == "landscape-left")
        #expect(report.warnings.contains { $0.hasPrefix("the mount matrix 1, 0, 0; 0, 1, 0; 0, 0, -1 is not a rotation") })
        #expect(report.sensor?.mirrored == true)
        #expect(report.sensor?.mountMatrixUsed == "1, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect(report.hinge == nil && report.base == nil, "a tablet: no hinge")
    }

    @Test("A convertible: θ from both sensors through the daemon's engine, and a singular base matrix named")
    func convertible() throws {
        let base = Vector3(0, 0, -g)
        let display = HingeGeometry.display(fromBase: base, hingeAngle: 110)
        let description = SensorDescription(
            id: "iio:device0", name: "display", mode: .polled, baseMountMatrix: .identity)
        var report = DoctorReport()
        report.analyse(events(description, display, base: base), reason: "display", seconds: 2, baseCandidate: nil)
        let angle = try #require(report.hinge?.angle)
        #expect(abs(angle - 110) < 1, "\(angle)")
        #expect(report.hinge?.posture == "laptop")
        #expect(report.hinge?.tabletMode == false)

        let singular = try MountMatrix(parsing: "1, 0, 0; 1, 0, 0; 0, 0, 1")
        var bad = DoctorReport()
        bad.analyse(
            events(SensorDescription(id: "iio:device0", name: "display", mode: .polled, baseMountMatrix: singular), display, base: base),
            reason: "display", seconds: 2, baseCandidate: nil)
        #expect(bad.warnings.contains { $0.contains("base sensor's mount matrix") && $0.contains("singular") })
    }
}
