import OrientCore

/// What the daemon knows of every sensor at one moment, as its store (the publisher) holds it: the one input of the
/// D-Bus facade, handed over at each change. Socket clients see the same store through their own view.
public struct SensorSnapshot: Sendable, Equatable {
    /// One sensor kind's part.
    public struct Sensor: Sendable, Equatable {
        /// Whether one is plugged in: udev's word, or the source's own (opened, lost, none found); `nil` until
        /// either has spoken.
        public var present: Bool?
        /// The kind's value now. A one-value kind's is its last reading (light after its filter): `nil` before the
        /// first, and once the sensor went away. The accelerometer's is its orientation: `nil` while it cannot be
        /// read (not opened, or failing).
        public var last: Value?
        /// Whether the sensor has given a reading since it was last started or opened (for the accelerometer: its
        /// first sample), and has not been lost since; false while nobody wants it.
        public var readSinceStart: Bool
        /// How many times, since the daemon started, the sensor gave its first reading after a start: a D-Bus claim
        /// that waits for a reading waits for this to grow. (Not every reading: the facade would wake for each.)
        public var firstReadings: Int

        public init(present: Bool? = nil, last: Value? = nil, readSinceStart: Bool = false, firstReadings: Int = 0) {
            self.present = present
            self.last = last
            self.readSinceStart = readSinceStart
            self.firstReadings = firstReadings
        }
    }

    /// A kind's value, as the facade shows it.
    public enum Value: Sendable, Equatable {
        /// The accelerometer's.
        case orientation(Orientation)
        /// A one-value kind's.
        case reading(Reading)
    }

    /// The accelerometer's value, as iio-sensor-proxy shows it.
    public struct Orientation: Sendable, Equatable {
        /// The device orientation the engine last committed; until it commits one after the sensor opened, what the
        /// sensor's first sample showed alone, as iio-sensor-proxy decides from its first reading.
        public var device: DeviceOrientation
        /// The display's tilt, as iio-sensor-proxy names it.
        public var tilt: AccelerometerTilt

        public init(device: DeviceOrientation, tilt: AccelerometerTilt) {
            self.device = device
            self.tilt = tilt
        }
    }

    /// The panel's natural orientation, which names the device orientations.
    public var natural: NaturalOrientation
    /// Every kind the daemon serves, the accelerometer included.
    public var sensors: [SensorKind: Sensor]

    public init(natural: NaturalOrientation = .portrait, sensors: [SensorKind: Sensor] = [:]) {
        self.natural = natural
        self.sensors = sensors
    }

    /// The accelerometer's value: `nil` while it cannot be read, or is not served.
    public var orientation: Orientation? {
        get {
            guard case .orientation(let orientation)? = sensors[.accelerometer]?.last else { return nil }
            return orientation
        }
        set { sensors[.accelerometer, default: Sensor()].last = newValue.map(Value.orientation) }
    }

    /// Whether every kind served has said whether it is plugged in.
    public var presenceKnown: Bool { sensors.values.allSatisfy { $0.present != nil } }
}
