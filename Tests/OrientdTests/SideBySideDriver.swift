import Foundation
import Testing

/// One sensor driver that orientd and iio-sensor-proxy both serve, as the side-by-side lifecycle script drives it:
/// how the emulated device is made and changed, which D-Bus members show it, and the readings the script walks
/// through.
enum SideBySideDriver: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pollLight = "iio-poll-als"
    case pollProximity = "iio-poll-proximity"
    case hidLight = "iio-buffer-als"
    case hidCompass = "iio-buffer-compass"
    case applesmcLight = "hwmon-als"

    var testDescription: String { rawValue }

    /// What the script writes, and what a client then reads of the value property (as busctl prints it), in the
    /// script's order: at the first claim, changed while claimed, changed while released, changed after the
    /// claimant left, at the replug, and when a sensor claimed before it existed appears. Proximity values stay
    /// far from the near level (100): inside its 10 % band the two daemons differ on purpose.
    var readings: [(raw: String, reads: String)] {
        switch self {
        case .pollLight:  // raw × scale 0.5
            [("100", "d 50"), ("250", "d 125"), ("40", "d 20"), ("60", "d 30"), ("30", "d 15"), ("300", "d 150")]
        case .pollProximity:
            [("500", "b true"), ("20", "b false"), ("500", "b true"), ("20", "b false"), ("500", "b true"), ("500", "b true")]
        case .hidLight:  // raw × scale 0.1
            [("500", "d 50"), ("1250", "d 125"), ("200", "d 20"), ("300", "d 30"), ("150", "d 15"), ("700", "d 70")]
        case .hidCompass:  // raw × scale 0.1, in degrees
            [("1800", "d 180"), ("905", "d 90.5"), ("100", "d 10"), ("2700", "d 270"), ("450", "d 45"), ("3599", "d 359.9")]
        case .applesmcLight:  // max(l, r) / 255 × 100
            [("(51,10)", "d 20"), ("(3,255)", "d 100"), ("(102,0)", "d 40"), ("(153,0)", "d 60"), ("(204,1)", "d 80"), ("(0,255)", "d 100")]
        }
    }

    /// The value before any claim.
    var unclaimed: String { self == .pollProximity ? "b false" : "d 0" }

    var hasProperty: String {
        switch self {
        case .pollLight, .hidLight, .applesmcLight: "HasAmbientLight"
        case .pollProximity: "HasProximity"
        case .hidCompass: "HasCompass"
        }
    }

    var valueProperty: String {
        switch self {
        case .pollLight, .hidLight, .applesmcLight: "LightLevel"
        case .pollProximity: "ProximityNear"
        case .hidCompass: "CompassHeading"
        }
    }

    /// Every property of this sensor a client can read.
    var properties: [String] {
        switch self {
        case .pollLight, .hidLight, .applesmcLight: [hasProperty, valueProperty, "LightLevelUnit"]
        case .pollProximity, .hidCompass: [hasProperty, valueProperty]
        }
    }

    var objectPath: String { self == .hidCompass ? "/net/hadess/SensorProxy/Compass" : "/net/hadess/SensorProxy" }
    var interface: String { self == .hidCompass ? "net.hadess.SensorProxy.Compass" : "net.hadess.SensorProxy" }

    /// bus_client.py's commands: `claim-light`, `release-light`...
    var claimCommand: String { "claim-" + claimSuffix }
    var releaseCommand: String { "release-" + claimSuffix }
    private var claimSuffix: String {
        switch self {
        case .pollLight, .hidLight, .applesmcLight: "light"
        case .pollProximity: "proximity"
        case .hidCompass: "compass"
        }
    }

    /// How long to wait before saying a change was not published: two of the sensor's reads (0.8 s for polled
    /// light, 0.7 s for proximity and buffered sensors). applesmc is read every 8 s, so there the script checks
    /// instead that a fresh claim reads the new value and that nothing arrived while released.
    var quietWait: Double {
        switch self {
        case .pollLight: 1.6
        case .pollProximity, .hidLight, .hidCompass: 1.4
        case .applesmcLight: 1.0
        }
    }

    /// How long a change may take to be published while claimed.
    var changeTimeout: Double { self == .applesmcLight ? 10 : 5 }

    /// The HID sensor hub device, for the buffered drivers.
    var hidSensor: HIDSensor? {
        switch self {
        case .hidLight: .light
        case .hidCompass: .compass
        default: nil
        }
    }

    /// The sysfs attribute a polled driver reads.
    var attribute: String {
        switch self {
        case .pollLight: "in_illuminance_raw"
        case .pollProximity: "in_proximity_raw"
        case .applesmcLight: "light"
        case .hidLight, .hidCompass: ""
        }
    }
}
