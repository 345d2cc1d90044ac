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
    }

    let id: String
    private let state: Mutex<State>

    init(id: String, value: Vector3) {
        self.id = id
        state = Mutex(State(value: value))
    }

    /// Reads `value` from now on, and no longer fails.
    func set(_ value: Vector3) {
        state.withLock { $0 = State(value: value) }
    }

    /// Every read throws `fault` from now on.
    func fail(_ fault: SensorError) {
        state.withLock { $0.fault = fault }
    }

    func read() throws(SensorError) -> UnscaledReading {
        let (value, fault) = state.withLock { ($0.value, $0.fault) }
        if let fault { throw fault }
        return UnscaledReading(value: value, timestamp: nil)
    }
}

/// Opens the accelerometers a test scripts, by id, as ``AccelerometerOpening`` opens devices: polled, named by the
/// driver's name, scaled by the scale given. One not scripted, or set to fail, cannot be opened.
final class ScriptedOpener: AccelerometerOpener {
    private struct Sensor {
        var reader: ScriptedAccelerometer
        var name: String?
        var scale: Vector3?
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
        return OpenedAccelerometer(
            reader: .polled(sensor.reader), scale: sensor.scale, clock: nil, using: "using \(chosen.id): \(reason)",
            description: SensorDescription(
                id: chosen.id, name: sensor.name ?? chosen.id, location: chosen.location, mode: .polled,
                mountMatrix: matrix, mountMatrixSource: source, scaleSource: sensor.scale == nil ? .learned : .device),
            hasBase: chosen.inputNode == nil)
    }

    func openBase(_ found: AccelerometerCandidate) throws(SensorError) -> OpenedBase {
        let sensor = try sensor(found.id)
        return OpenedBase(reader: sensor.reader, name: sensor.name, scale: sensor.scale)
    }
}
