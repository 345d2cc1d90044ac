import OrientCore

/// What the daemon knows of every sensor at one moment, as its store (the publisher) holds it: the one input of the
/// D-Bus facade, handed over at each change. Socket clients see the same store through their own view.
public struct SensorSnapshot: Sendable, Equatable {
    /// One sensor kind's part.
    public struct Sensor: Sendable, Equatable {
        /// Whether one is plugged in: udev's word, or the source's own (opened, lost, none found); `nil` until
        /// either has spoken.
        public var present: Bool?
        /// The last value read (light after its filter); `nil` before the first, and once the sensor went away.
        public var last: Reading?
        /// Whether the sensor has given a reading since it was last started or opened (for the accelerometer: its
        /// first sample), and has not been lost since; false while nobody wants it.
        public var readSinceStart: Bool
        /// How many times, since the daemon started, the sensor gave its first reading after a start: a D-Bus claim
        /// that waits for a reading waits for this to grow. (Not every reading: the facade would wake for each.)
        public var firstReadings: Int

        public init(present: Bool? = nil, last: Reading? = nil, readSinceStart: Bool = false, firstReadings: Int = 0) {
            self.present = present
            self.last = last
            self.readSinceStart = readSinceStart
            self.firstReadings = firstReadings
        }
    }

    /// The device orientation the engine last committed; until it commits one after the sensor opened, what the
    /// sensor's first sample showed alone, as iio-sensor-proxy decides from its first reading.
    public var device: DeviceOrientation
    /// Whether the accelerometer can be read now (opened and not failing).
    public var accelerometerReadable: Bool
    /// The display's tilt, as iio-sensor-proxy names it.
    public var tilt: AccelerometerTilt
    /// The panel's natural orientation, which names the device orientations.
    public var natural: NaturalOrientation
    /// Every kind the daemon serves, the accelerometer included (its `last` stays `nil`: its value is `device`).
    public var sensors: [SensorKind: Sensor]

    public init(
        device: DeviceOrientation = .unknown, accelerometerReadable: Bool = false, tilt: AccelerometerTilt = .undefined,
        natural: NaturalOrientation = .portrait, sensors: [SensorKind: Sensor] = [:]
    ) {
        self.device = device
        self.accelerometerReadable = accelerometerReadable
        self.tilt = tilt
        self.natural = natural
        self.sensors = sensors
    }

    /// Whether every kind served has said whether it is plugged in.
    public var presenceKnown: Bool { sensors.values.allSatisfy { $0.present != nil } }
}
