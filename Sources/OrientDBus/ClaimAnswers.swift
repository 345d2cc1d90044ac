import OrientCore
import OrientSampleSource

/// When a `Claim*` call is answered. Pure: no bus, no clock of its own.
///
/// iio-sensor-proxy 3.6 and later answer a claim once the sensor has given its first reading, so that a client
/// reading the property straight after the claim reads a value the sensor gave, not the 0 lux or `undefined` that
/// stand for "nothing read yet". orientd does the same, with a bound:
/// - no sensor of the kind plugged in: at once (the claim takes effect when one appears);
/// - the sensor is read for other clients already and has read since it started: at once;
/// - otherwise at the sensor's next first reading after a start, which comes as soon as the capture opens it;
/// - unplugged while a claim waits: the claim fails with iio-sensor-proxy's error;
/// - nothing read within ``bound`` seconds (``defaultBound``): the claim is answered anyway, the log says so, and the reading follows
///   as `PropertiesChanged`. iio-sensor-proxy has no bound: its caller waits until its own D-Bus timeout (25 s in
///   GIO), and gets an error.
///
/// A kind whose last D-Bus claimant just left is about to stop: until its service says it stopped (or a start has
/// read since), its last reading does not answer a new claim, so that a claim, a release and a claim in a row read
/// what the second start read, as in iio-sensor-proxy. A socket client that keeps such a sensor open delays that
/// claim to the bound. The accelerometer is exempt: its orientation is followed through every sample, so it is
/// current whenever the sensor reads.
public struct ClaimAnswers: Sendable {
    /// A claim waiting for a reading.
    struct Waiting: Equatable {
        let kind: SensorKind
        /// The kind's ``SensorSnapshot/Sensor/firstReadings`` when it was claimed.
        let firstReadingsAtClaim: Int
        /// When it is answered anyway, in the caller's seconds.
        let deadline: Double
    }

    enum Outcome: Equatable {
        case answer
        /// Answered at the bound, with no reading.
        case timedOut
        case sensorRemoved
    }

    /// How long a claim waits for a reading, in seconds: longer than a first read takes (a buffer's check at 0.5 s,
    /// a slow integration time), and well within a client's D-Bus timeout (25 s in GIO and sd-bus).
    public static let defaultBound = 3.0

    let bound: Double

    init(bound: Double = Self.defaultBound) {
        self.bound = bound
    }

    /// The kinds whose last claimant left, with the first-readings count then: a reading from before does not
    /// answer a new claim until the kind has stopped or read again.
    private var stale: [SensorKind: Int] = [:]

    /// Whether a claim of `kind` made now is answered at once; otherwise it waits (``waiting(_:in:now:)``).
    func answersAtOnce(_ kind: SensorKind, in snapshot: SensorSnapshot) -> Bool {
        guard let sensor = snapshot.sensors[kind], sensor.present == true else { return true }
        return sensor.readSinceStart && stale[kind] == nil
    }

    func waiting(_ kind: SensorKind, in snapshot: SensorSnapshot, now: Double) -> Waiting {
        Waiting(kind: kind, firstReadingsAtClaim: snapshot.sensors[kind]?.firstReadings ?? 0, deadline: now + bound)
    }

    /// What becomes of a waiting claim, or `nil` while it still waits.
    func outcome(of waiting: Waiting, in snapshot: SensorSnapshot, now: Double) -> Outcome? {
        guard let sensor = snapshot.sensors[waiting.kind], sensor.present == true else { return .sensorRemoved }
        if sensor.firstReadings > waiting.firstReadingsAtClaim { return .answer }
        return now >= waiting.deadline ? .timedOut : nil
    }

    /// The last D-Bus claimant of `kind` released it or left the bus.
    mutating func lastClaimGone(_ kind: SensorKind, in snapshot: SensorSnapshot) {
        guard kind != .accelerometer, let sensor = snapshot.sensors[kind], sensor.readSinceStart else { return }
        stale[kind] = sensor.firstReadings
    }

    /// What the store knows now: a kind that stopped, or read again since it went stale, is stale no more.
    mutating func take(_ snapshot: SensorSnapshot) {
        stale = stale.filter { kind, firstReadings in
            guard let sensor = snapshot.sensors[kind] else { return false }
            return sensor.readSinceStart && sensor.firstReadings == firstReadings
        }
    }
}
