import OrientCore
import OrientSampleSource

/// The values iio-sensor-proxy's clients read, derived from what the daemon knows. Pure: no bus, no I/O.
///
/// `AccelerometerOrientation` is the device orientation (not the interface orientation: the desktops apply
/// their own lock), named as iio-sensor-proxy names it: by the edge of the panel that is up, whatever the panel's
/// natural orientation (the device orientation's name depends on it; iio-sensor-proxy's does not). Face up, face down and unknown keep the last upright
/// value, since a screen lying flat has no up; `undefined` is reported before the first upright orientation
/// and while no sensor can be read.
///
/// `AccelerometerTilt` is the display's tilt as iio-sensor-proxy computes it (``AccelerometerTilt``): `undefined`
/// before the first reading and while no sensor can be read, and the last one after a release, as the orientation.
///
/// The light level, the proximity and the compass heading are 0 and false until the first reading and keep the last
/// one when nobody claims the sensor any more, or it is unplugged, as in iio-sensor-proxy. The compass's two
/// properties belong to its own object (`/net/hadess/SensorProxy/Compass`), and are announced there.
public struct SensorProxyProperties: Sendable, Equatable {
    public private(set) var hasAccelerometer = false
    public private(set) var accelerometerOrientation = "undefined"
    public private(set) var accelerometerTilt = AccelerometerTilt.undefined.rawValue
    /// The one-value kinds whose sensor is plugged in.
    public private(set) var present: Set<SensorKind> = []
    /// Each one-value kind's last reading, kept when nobody claims it any more or it is unplugged; none before the
    /// first (its binding says what the bus shows then).
    public private(set) var readings: [SensorKind: Reading] = [:]
    private var sensorPresent = false
    private var sensorReadable = false
    private var lastUpright: DeviceOrientation?
    private var lastTilt = AccelerometerTilt.undefined
    /// What the daemon's device orientations are named by, to turn them back into the panel's poses.
    private var natural = NaturalOrientation.portrait

    public init() {}

    /// Takes what the daemon's store knows now. A reading the store has forgotten (its sensor gone) leaves the last
    /// one shown, as iio-sensor-proxy does.
    public mutating func show(_ snapshot: SensorSnapshot) {
        natural = snapshot.natural
        for (kind, sensor) in snapshot.sensors {
            if let present = sensor.present { setPresent(present, of: kind) }
            switch sensor.last {
            case .reading(let reading)?: update(reading)
            case .orientation(let orientation)?:
                update(tilt: orientation.tilt)
                update(device: orientation.device, readable: true)
            case nil:
                // The accelerometer goes back to `undefined`; a one-value kind keeps its last reading shown.
                if kind == .accelerometer { update(device: .unknown, readable: false) }
            }
        }
    }

    /// The panel's natural orientation, as the daemon names device orientations by it.
    public mutating func setNatural(_ natural: NaturalOrientation) {
        self.natural = natural
        refresh()
    }

    /// A sensor of `kind` is plugged in (whether or not it is open).
    public mutating func setPresent(_ present: Bool, of kind: SensorKind) {
        switch kind {
        case .accelerometer:
            sensorPresent = present
            if !present {
                lastUpright = nil
                lastTilt = .undefined
            }
            refresh()
        case .light, .proximity, .compass:
            if present { self.present.insert(kind) } else { self.present.remove(kind) }
        }
    }

    /// A one-value sensor's new reading.
    public mutating func update(_ reading: Reading) {
        readings[reading.kind] = reading
    }

    /// The display's new tilt.
    public mutating func update(tilt: AccelerometerTilt) {
        lastTilt = tilt
        refresh()
    }

    /// The daemon's device orientation and whether the sensor feeds it now.
    public mutating func update(device: DeviceOrientation, readable: Bool) {
        if !readable {
            // A sensor that comes back starts from `undefined`, as iio-sensor-proxy's does.
            lastUpright = nil
            lastTilt = .undefined
        } else if device.isUpright {
            lastUpright = device
        }
        sensorReadable = readable
        refresh()
    }

    /// iio-sensor-proxy's name for an upright device orientation: the edge of the panel that points up (on a
    /// portrait panel, landscape right has the left edge up; on a landscape one, portrait has).
    public static func name(of device: DeviceOrientation, on natural: NaturalOrientation = .portrait) -> String? {
        natural.pose(of: device)?.rawValue
    }

    private mutating func refresh() {
        hasAccelerometer = sensorPresent
        let readable = sensorPresent && sensorReadable
        accelerometerOrientation = readable ? lastUpright.flatMap { Self.name(of: $0, on: natural) } ?? "undefined" : "undefined"
        accelerometerTilt = readable ? lastTilt.rawValue : AccelerometerTilt.undefined.rawValue
    }
}
