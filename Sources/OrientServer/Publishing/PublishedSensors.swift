import OrientCore
import OrientProtocol
import OrientSampleSource

/// What the daemon knows of each sensor it serves, the accelerometer included, from its service: whether one is
/// plugged in, whether it is read, and whether it has read since it started. A one-value sensor's record also holds
/// the sensor last opened and its last reading, its value; the accelerometer's value, the orientation, is
/// ``PublishedState``. Pure: each change returns the state socket clients are now told of a one-value kind, when that
/// may have changed. Socket clients see only the kinds the socket offers (``SensorKind/socket``); the D-Bus facade
/// sees them all (``snapshot``).
struct PublishedSensors {
    struct Sensor {
        /// Whether one is plugged in: udev's word, or the source's own (opened, lost, none found); `nil` until
        /// either has spoken.
        var present: Bool?
        /// Whether one is plugged in as the D-Bus facade says it (`Has*`): udev's word, and true once one opens;
        /// a sensor that fails to open or to read is still plugged in there, as in iio-sensor-proxy, so that `Has*`
        /// does not flap while udev has said nothing.
        var plugged: Bool?
        /// Its sensor service has started the source (someone wants the kind).
        var open = false
        /// Since the source started, it has read a value or found no sensor: a `get` waiting for it may answer.
        var heardSinceOpened = false
        var description: ReadingSensorDescription?
        /// The last value published (light after its filter, as D-Bus shows it); forgotten when the sensor goes.
        var last: Reading?
        /// A value has been read since the source started or the sensor opened, and the sensor has not been lost
        /// since: what a D-Bus claim would read now is one the sensor gave.
        var readSinceStarted = false
        /// How many times a first value after a start was read, since the daemon started.
        var firstReadings = 0

        /// A first value after a start or an opening counts once.
        mutating func read() {
            if !readSinceStarted { firstReadings += 1 }
            readSinceStarted = true
        }
    }

    /// The one-value kinds served, in the order `status` lists them.
    let readingKinds: [SensorKind]
    private var sensors: [SensorKind: Sensor]

    init(readingKinds: [SensorKind]) {
        self.readingKinds = readingKinds
        self.sensors = Dictionary(uniqueKeysWithValues: ([.accelerometer] + readingKinds).map { ($0, Sensor()) })
    }

    subscript(kind: SensorKind) -> Sensor? { sensors[kind] }

    /// Takes what a kind's sensor service said. Returns the state clients are told of its kind, or `nil` when the
    /// kind is not one they can ask for (the accelerometer, the compass) or nothing they are told changed.
    mutating func take(_ news: SensorNews, of kind: SensorKind) -> ReadingState? {
        guard var sensor = sensors[kind] else { return nil }
        switch news {
        case .present(let present):
            sensor.present = present
            sensor.plugged = present
            if !present { sensor.last = nil }
        case .started, .stopped:
            sensor.open = news == .started
            sensor.heardSinceOpened = false
            sensor.readSinceStarted = false
        case .opened(let description):
            sensor.description = description
            fallthrough
        case .accelerometerOpened:
            sensor.present = true
            sensor.plugged = true
            sensor.readSinceStarted = false
        case .read(let reading):
            sensor.present = true
            sensor.heardSinceOpened = true
            sensor.read()
            sensor.last = reading
        case .accelerometerRead(let update):
            // Its first sample since it opened; the samples after it change the orientation, not what a claim waits for.
            guard update.first != nil else { return nil }
            sensor.read()
        case .lost, .noSensor:
            sensor.present = false
            sensor.heardSinceOpened = true
            sensor.readSinceStarted = false
            sensor.last = nil
        case .incident, .baseLost, .hingeLost, .ended:
            return nil  // the publisher's incident log keeps an incident; the rest is the orientation's
        }
        sensors[kind] = sensor
        return kind.socket == .reading ? state(of: kind) : nil
    }

    /// What a client is told of `kind`; `nil` while nothing is known of it yet (no word from udev or the sensor).
    /// A kind the daemon does not serve is not present.
    func state(of kind: SensorKind) -> ReadingState? {
        guard let sensor = sensors[kind] else { return ReadingState(kind: kind, present: false) }
        guard let present = sensor.present else { return nil }
        return ReadingState(kind: kind, present: present, value: present ? sensor.last.flatMap(\.value) : nil)
    }

    /// Whether a `get` that asked for `kind` has what it waits for: the sensor read (or found absent) since it was
    /// opened for it. A kind not served has nothing to wait for.
    func isSettled(_ kind: SensorKind) -> Bool {
        guard let sensor = sensors[kind] else { return true }
        return sensor.open && sensor.heardSinceOpened
    }

    /// Each kind served, as the D-Bus facade sees it.
    var snapshot: [SensorKind: SensorSnapshot.Sensor] {
        sensors.mapValues {
            SensorSnapshot.Sensor(present: $0.plugged, last: $0.last.map(SensorSnapshot.Value.reading), readSinceStart: $0.readSinceStarted, firstReadings: $0.firstReadings)
        }
    }

    /// Each one-value kind served, for `status`.
    var report: [StatusReport.ReadingSensor] {
        readingKinds.map { kind in
            let sensor = sensors[kind] ?? Sensor()
            guard kind.socket == .reading else { return StatusReport.ReadingSensor(kind: kind.rawValue, present: sensor.present) }
            let description = sensor.description
            return StatusReport.ReadingSensor(
                kind: kind.rawValue, present: sensor.present, open: sensor.open, id: description?.id,
                name: description?.name, foundBy: description?.foundBy, interval: description?.interval,
                details: description?.details ?? [:], value: sensor.last?.value)
        }
    }
}

extension Reading {
    /// The reading as the socket carries it; `nil` for the compass, which it does not.
    var value: Reading? { kind.socket == .reading ? self : nil }
}
