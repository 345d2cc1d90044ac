import Foundation
import OrientCore
import PropertyBased
import Testing

/// The tilt as iio-sensor-proxy defines it (its `tilt_calc`): the angle of z above the x-y plane, in whole degrees
/// from readings scaled to 256 per g; `vertical` up to 20°, tilted below 70°, face up or down from 70°, by the sign
/// of z, with no hysteresis.
@Suite("AccelerometerTilt")
struct AccelerometerTiltTests {
    static let g = 9.81

    /// A reading of 1 g leaning `degrees` out of the x-y plane towards +z (the screen's top edge up: y = -g at 0°).
    static func reading(degrees: Double) -> Vector3 {
        let radians = degrees * .pi / 180
        return Vector3(0, -g * cos(radians), g * sin(radians))
    }

    @Test("Each band and its edges, on both sides of the plane", arguments: [
        (0.0, AccelerometerTilt.vertical), (19.6, .vertical), (20.4, .vertical), (-20.4, .vertical),
        (20.6, .tiltedUp), (45, .tiltedUp), (69.4, .tiltedUp), (-20.6, .tiltedDown), (-69.4, .tiltedDown),
        (69.6, .faceUp), (90, .faceUp), (-69.6, .faceDown), (-90, .faceDown),
    ])
    func bands(degrees: Double, tilt: AccelerometerTilt) {
        // iio-sensor-proxy rounds to a whole degree before comparing: 20.4° is 20 (vertical), 20.6° is 21.
        #expect(AccelerometerTilt(Self.reading(degrees: degrees)) == tilt, "\(degrees)°")
    }

    @Test("The sideways axis counts as the upright one: a landscape device leaning back by 45° is tilted too")
    func landscape() {
        #expect(AccelerometerTilt(Vector3(Self.g * 0.7071, 0, Self.g * 0.7071)) == .tiltedUp)
        #expect(AccelerometerTilt(Vector3(-Self.g * 0.7071, 0, -Self.g * 0.7071)) == .tiltedDown)
    }

    @Test("The scale does not matter, only the direction: a driver's scale off by 10 reads the same tilt")
    func scaleFree() {
        for degrees in [0.0, 30, -50, 80] {
            let reading = Self.reading(degrees: degrees)
            let scaled = Vector3(reading.x * 10, reading.y * 10, reading.z * 10)
            #expect(AccelerometerTilt(scaled) == AccelerometerTilt(reading))
        }
    }

    @Test("Each axis is truncated to a 256th of g first, as iio-sensor-proxy's integer code does")
    func truncation() {
        // z = 0.9 counts truncates to 0: flat in the x-y plane, vertical, even with nothing on x and y.
        #expect(AccelerometerTilt(Vector3(0, 0, 0.9 * Self.g / 256)) == .vertical)
        // z = 1 count against nothing else is 90°: face up.
        #expect(AccelerometerTilt(Vector3(0, 0, 1.01 * Self.g / 256)) == .faceUp)
    }

    @Test("No reading at all is vertical (atan2 of 0 and 0), never a crash; nor is a reading that is not a number")
    func degenerate() {
        #expect(AccelerometerTilt(.zero) == .vertical)
        #expect(AccelerometerTilt(Vector3(.nan, .infinity, -.infinity)) == .vertical)
    }

    @Test("The engine reports a tilt only when it changes, and from the first sample on")
    func engineChanges() throws {
        var engine = try EngineConfiguration().makeEngine(displayMatrix: .identity, baseMatrix: nil)
        #expect(engine.tilt == .undefined)
        func tilt(after degrees: Double, at time: Double) throws -> AccelerometerTilt? {
            try engine.feed(AccelSample(time: time, acceleration: Self.reading(degrees: degrees))).tilt
        }
        #expect(try tilt(after: 0, at: 0) == .vertical)
        #expect(try tilt(after: 5, at: 0.02) == nil, "still vertical: nothing new")
        #expect(try tilt(after: 40, at: 0.04) == .tiltedUp, "at once: no hysteresis, no settling")
        #expect(try tilt(after: -85, at: 0.06) == .faceDown)
        #expect(engine.tilt == .faceDown)
    }

    @Test("The engine reads the tilt under the mount matrix as given, as iio-sensor-proxy does, not under its repair")
    func givenMatrix() throws {
        // A mirrored matrix (z reversed): orientd classifies with z = x × y, iio-sensor-proxy with the matrix as is.
        let mirrored = try MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, -1")
        var engine = try EngineConfiguration().makeEngine(displayMatrix: mirrored, baseMatrix: nil)
        let update = try engine.feed(AccelSample(time: 0, acceleration: Self.reading(degrees: 45)))
        #expect(update.tilt == .tiltedDown, "z as the given matrix maps it")
    }

    /// iio-sensor-proxy's own rule, as written: the angle by atan2, rounded to a whole degree, then the bands.
    static func byAngle(_ x: Int, _ y: Int, _ z: Int) -> AccelerometerTilt {
        let degrees = Int((atan2(Double(z), Double(x * x + y * y).squareRoot()) * 180 / .pi).rounded())
        switch abs(degrees) {
        case ...AccelerometerTilt.verticalLimit: return .vertical
        case ..<AccelerometerTilt.faceLimit: return degrees > 0 ? .tiltedUp : .tiltedDown
        default: return degrees > 0 ? .faceUp : .faceDown
        }
    }

    /// A reading whose counts are `counts` exactly (256 per g, as iio-sensor-proxy scales them).
    static func reading(counts x: Int, _ y: Int, _ z: Int) -> Vector3 {
        // A hair above each count, so that truncating towards zero gives the count back.
        func value(_ count: Int) -> Double { (Double(count) + (count < 0 ? -0.25 : 0.25)) * 9.81 / 256 }
        return Vector3(value(x), value(y), value(z))
    }

    @Test("Without atan2 it decides as atan2 does: random readings up to 4 g, and readings a hair either side of each band's edge")
    func sameAsByAngle() async {
        await propertyCheck(count: 3000, input: Gen.int(in: -1024...1024), Gen.int(in: -1024...1024), Gen.int(in: -1024...1024)) {
            x, y, z in
            #expect(AccelerometerTilt(Self.reading(counts: x, y, z)) == Self.byAngle(x, y, z), "(\(x), \(y), \(z))")
        }
        // Near 20.5° and 69.5°, where rounding changes the band: every whole count around the edge at 1 g.
        for edge in [20.5, 69.5, -20.5, -69.5] {
            for magnitude in [200.0, 256, 300, 512] {
                let radians = edge * .pi / 180
                let across = Int((magnitude * cos(radians)).rounded())
                let upright = Int((magnitude * sin(radians)).rounded())
                for z in upright - 3...upright + 3 {
                    #expect(AccelerometerTilt(Self.reading(counts: 0, across, z)) == Self.byAngle(0, across, z), "(0, \(across), \(z))")
                }
            }
        }
    }
}
