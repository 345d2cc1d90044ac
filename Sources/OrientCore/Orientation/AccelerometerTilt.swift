import RealModule

/// How far the screen leans from vertical, as newer iio-sensor-proxy versions serve it (`AccelerometerTilt` on
/// D-Bus), computed as they compute it so that its clients read the same value on the same sensor.
///
/// The angle is that of the reading's z axis above the x-y plane, from the reading under the sensor's mount matrix
/// scaled to 256 per g and truncated to integers, rounded to a whole degree. Up to 20° either way is `vertical`,
/// below 70° `tilted-up` or `tilted-down`, from 70° `face-up` or `face-down`, by the sign of z. There is no
/// hysteresis: each reading decides alone, as in iio-sensor-proxy.
///
/// The names follow the sign of z as read. Under the Linux convention orientd's own device orientation follows
/// (face up reads (0, 0, -g)), a screen lying face up is `face-down` here, as iio-sensor-proxy says it.
public enum AccelerometerTilt: String, Sendable, CaseIterable, Hashable {
    /// No reading yet, or no accelerometer that can be read.
    case undefined
    case vertical
    case tiltedUp = "tilted-up"
    case tiltedDown = "tilted-down"
    case faceUp = "face-up"
    case faceDown = "face-down"

    /// iio-sensor-proxy's thresholds, in whole degrees above the x-y plane.
    public static let verticalLimit = 20
    public static let faceLimit = 70

    /// The tilt of one reading in the device frame, in m/s².
    public init(_ acceleration: Vector3) {
        // iio-sensor-proxy's units: 1 g is 256, and its C code truncates each axis to an integer.
        func counts(_ value: Double) -> Int {
            let scaled = value * 256 / 9.81
            return scaled.isFinite ? Int(scaled.clamped(to: -1e9...1e9)) : 0
        }
        let (x, y, z) = (Double(counts(acceleration.x)), Double(counts(acceleration.y)), Double(counts(acceleration.z)))
        // The angle rounded to a whole degree is at most 20 when the angle is below 20.5°, and below 70 when it is
        // below 69.5° (halves round away from zero): compared as z² against tan² of those times x² + y², which
        // decides as atan2 would without computing it at every sample (the tests check the two agree).
        let across = x * x + y * y
        let up = z * z
        if z == 0 || up < Self.tanSquared205 * across {
            self = .vertical
        } else if up < Self.tanSquared695 * across {
            self = z > 0 ? .tiltedUp : .tiltedDown
        } else {
            self = z > 0 ? .faceUp : .faceDown
        }
    }

    /// tan²(20.5°) and tan²(69.5°): where the rounded angle crosses ``verticalLimit`` and ``faceLimit``.
    static let tanSquared205 = tanSquared(degrees: Double(verticalLimit) + 0.5)
    static let tanSquared695 = tanSquared(degrees: Double(faceLimit) - 0.5)

    private static func tanSquared(degrees: Double) -> Double {
        let t = Double.tan(degrees * .pi / 180)
        return t * t
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
