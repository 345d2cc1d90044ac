import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An accelerometer whose reading the test sets while a capture reads it: each read gives the value set last, or
/// throws the fault set last.
final class ScriptedAccelerometer: PolledAccelerometer, Sendable {
    private struct State {
        var value: Vector3
        var fault: SensorError?
        var reads = 0
    }

    let id: String
    private let state: Mutex<State>

    init(id: String, value: Vector3) {
        self.id = id
        state = Mutex(State(value: value))
    }

    /// Reads `value` from now on, and no longer fails.
    func set(_ value: Vector3) {
        state.withLock {
            $0.value = value
            $0.fault = nil
        }
    }

    /// How many times it was read.
    var reads: Int { state.withLock { $0.reads } }

    /// Every read throws `fault` from now on.
    func fail(_ fault: SensorError) {
        state.withLock { $0.fault = fault }
    }

    func read() throws(SensorError) -> UnscaledReading {
        let (value, fault) = state.withLock { state in
            state.reads += 1
            return (state.value, state.fault)
        }
        if let fault { throw fault }
        return UnscaledReading(value: value, timestamp: nil)
    }
}

/// A buffered accelerometer that the test feeds: the scans it queues come out at the next read, a stream it sets
/// goes on at 50 Hz, and with neither a read waits out its limit and times out, as libiio's refill does. Its raw
/// attributes are a ``ScriptedAccelerometer``, and it keeps the rates the capture asks of it.
final class ScriptedBufferedAccelerometer: BufferedAccelerometer, Sendable {
    private struct State {
        var scans: [Vector3] = []
        var stream: Vector3?
        var waitLimit = 0.5
        var requested: [Double] = []
    }

    let id: String
    let scale: Vector3?
    /// Stamps the scans with this clock's time, when set.
    let clock: TimestampClock?
    let raw: ScriptedAccelerometer
    private let state = Mutex(State())

    init(id: String, scale: Vector3?, raw: Vector3, clock: TimestampClock?) {
        self.id = id
        self.scale = scale
        self.clock = clock
        self.raw = ScriptedAccelerometer(id: id, value: raw)
    }

    var waitLimit: Double {
        get { state.withLock { $0.waitLimit } }
        set { state.withLock { $0.waitLimit = newValue } }
    }

    /// The rates asked for, in order.
    var requested: [Double] { state.withLock { $0.requested } }

    /// Scans for the next read.
    func queue(_ scans: [Vector3]) {
        state.withLock { $0.scans += scans }
    }

    /// A scan of `value` every 20 ms from now on; nil: silence.
    func stream(_ value: Vector3?) {
        state.withLock { $0.stream = value }
    }

    func read() throws(SensorError) -> [UnscaledReading] {
        let (scans, stream, waitLimit) = state.withLock { state in
            defer { state.scans = [] }
            return (state.scans, state.stream, state.waitLimit)
        }
        var values = scans
        if values.isEmpty, let stream {
            usleep(20_000)
            values = [stream]
        }
        guard !values.isEmpty else {
            usleep(UInt32(max(waitLimit, 0.01) * 1_000_000))
            throw SensorError("iio_buffer_refill", errno: ETIMEDOUT, device: id)
        }
        let stamp = clock?.now
        return values.map { UnscaledReading(value: $0, timestamp: stamp) }
    }

    func readRaw() throws(SensorError) -> UnscaledReading { try raw.read() }

    func requestRate(_ rate: Double) {
        state.withLock { $0.requested.append(rate) }
    }
}

/// Opens the accelerometers a test scripts, by id, as ``AccelerometerOpening`` opens devices: named by the driver's
/// name, scaled by the scale given; a buffered one through its buffer when asked, else by polling its raw
/// attributes. One not scripted, or set to fail, cannot be opened.
final class ScriptedOpener: AccelerometerOpener {
    private struct Sensor {
        var reader: ScriptedAccelerometer
        var name: String?
        var scale: Vector3?
        var buffered: ScriptedBufferedAccelerometer?
    }

    private struct State {
        var sensors: [String: Sensor] = [:]
        var faults: [String: SensorError] = [:]
    }

    private let state = Mutex(State())

    /// Scripts accelerometer `id`, reading `value` until told otherwise.
    @discardableResult
    func script(_ id: String, name: String? = nil, scale: Vector3?, value: Vector3) -> ScriptedAccelerometer {
        let reader = ScriptedAccelerometer(id: id, value: value)
        state.withLock { $0.sensors[id] = Sensor(reader: reader, name: name, scale: scale) }
        return reader
    }

    /// Scripts buffered accelerometer `id`, its raw attributes reading `raw`, its scans stamped on `clock` if given.
    func scriptBuffered(
        _ id: String, scale: Vector3?, raw: Vector3, clock: TimestampClock? = nil
    ) -> ScriptedBufferedAccelerometer {
        let buffered = ScriptedBufferedAccelerometer(id: id, scale: scale, raw: raw, clock: clock)
        state.withLock { $0.sensors[id] = Sensor(reader: buffered.raw, scale: scale, buffered: buffered) }
        return buffered
    }

    /// Opening `id` throws `fault` from now on; nil: it opens again.
    func failOpening(_ id: String, with fault: SensorError?) {
        state.withLock { $0.faults[id] = fault }
    }

    private func sensor(_ id: String) throws(SensorError) -> Sensor {
        let (sensor, fault) = state.withLock { ($0.sensors[id], $0.faults[id]) }
        if let fault { throw fault }
        guard let sensor else { throw SensorError("iio_context_find_device", errno: ENODEV, device: id) }
        return sensor
    }

    func open(_ chosen: AccelerometerCandidate, reason: String, buffered: Bool) throws(SensorError) -> OpenedAccelerometer {
        let sensor = try sensor(chosen.id)
        let (matrix, source, _) = chosen.mountMatrix()
        let reader: AccelerometerReader =
            if buffered, let scans = sensor.buffered { .buffered(scans, openedAt: monotonicSeconds()) } else { .polled(sensor.reader) }
        let mode: SensorDescription.CaptureMode = if case .buffered = reader { .buffered } else { .polled }
        return OpenedAccelerometer(
            reader: reader, scale: sensor.scale, clock: sensor.buffered?.clock, using: "using \(chosen.id): \(reason)",
            description: SensorDescription(
                id: chosen.id, name: sensor.name ?? chosen.id, location: chosen.location, mode: mode,
                mountMatrix: matrix, mountMatrixSource: source, scaleSource: sensor.scale == nil ? .learned : .device),
            hasBase: chosen.inputNode == nil)
    }

    func openBase(_ found: AccelerometerCandidate) throws(SensorError) -> OpenedBase {
        let sensor = try sensor(found.id)
        return OpenedBase(reader: sensor.reader, name: sensor.name, scale: sensor.scale)
    }
}
