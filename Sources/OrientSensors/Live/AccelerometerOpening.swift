import Logging
import OrientCore

#if canImport(Glibc)
import Glibc
import OrientSampleSource
#endif

/// How an open accelerometer is read.
enum AccelerometerReader {
    case polled(any PolledAccelerometer)
    case buffered(any BufferedAccelerometer, openedAt: Double)
}

/// A chosen accelerometer opened: how it is read, and what the capture says of it.
struct OpenedAccelerometer {
    var reader: AccelerometerReader
    /// The device's scale, per axis; nil when it gives none and 1 g is learned at rest.
    var scale: Vector3?
    /// The clock of a buffer's timestamps, when the device names one.
    var clock: TimestampClock?
    /// What the log says of it: `using iio:device0: the only accelerometer`.
    var using: String
    var description: SensorDescription
    /// Whether a convertible's base sensor is looked for beside it (IIO devices with a node only).
    var hasBase: Bool
}

/// A convertible's base accelerometer opened: its reader, and what its description says of it.
struct OpenedBase {
    var reader: any PolledAccelerometer
    /// The driver's name, when it has one.
    var name: String?
    /// The device's scale, per axis; nil when it gives none and 1 g is learned at rest.
    var scale: Vector3?
}

/// Opens what the capture reads: the accelerometer ``SensorSelection`` chose, and a convertible's base beside it.
/// ``AccelerometerOpening`` opens the devices themselves; a test hands readers it scripts.
protocol AccelerometerOpener: Sendable {
    /// Opens `chosen`, read through its buffer when `buffered` and it can be; `reason` is why it was chosen.
    func open(_ chosen: AccelerometerCandidate, reason: String, buffered: Bool) throws(SensorError) -> OpenedAccelerometer

    /// Opens the base sensor `found` beside the display's, to be polled.
    func openBase(_ found: AccelerometerCandidate) throws(SensorError) -> OpenedBase
}

/// Opens the accelerometer ``SensorSelection`` chose, whichever kind of device it is: an evdev input device, a
/// buffer-only IIO device under umockdev (its scans in a file), or an IIO device read through libiio, buffered
/// when `buffered` and it can be, else polled. Problems with its mount matrix are logged and skipped.
struct AccelerometerOpening: AccelerometerOpener {
    let capture: CaptureSettings
    let logger: Logger

    func open(
        _ chosen: AccelerometerCandidate, reason: String, buffered: Bool
    ) throws(SensorError) -> OpenedAccelerometer {
        if let node = chosen.inputNode { return try openInput(chosen, node: node, reason: reason) }
        if chosen.bufferOnly, let file = ScanFileAccelerometer.emulatedFile(forDevice: chosen.id) {
            return try openScanFile(chosen, file: file, reason: reason)
        }
        let device = try IIODevice(id: chosen.id, requestedRate: capture.rate)
        var reader: AccelerometerReader = .polled(IIOPolledAccelerometer(device))
        var pollingReason: String?
        let access = BufferedAccess(deviceID: chosen.id, sysfsPath: chosen.path)
        if buffered, !access.isPermitted {
            pollingReason = access.explanation
            logger.warning("\(chosen.id): polling: \(access.explanation)")
        } else if buffered {
            do {
                reader = .buffered(try IIOBufferedAccelerometer(device), openedAt: monotonicSeconds())
            } catch {
                pollingReason = "no buffered capture: \(error)"
                logger.info("\(chosen.id): no buffered capture (\(error)); polling")
            }
        }
        let (matrix, source) = mountMatrix(of: chosen)
        let mode: SensorDescription.CaptureMode = if case .buffered = reader { .buffered } else { .polled }
        return OpenedAccelerometer(
            reader: reader, scale: device.scale, clock: device.timestampClock, using: "using \(chosen.id): \(reason)",
            description: SensorDescription(
                id: chosen.id, name: device.name ?? chosen.name ?? chosen.id, location: chosen.location, mode: mode,
                rate: device.rate ?? capture.rate, mountMatrix: matrix, mountMatrixSource: source,
                scaleSource: device.scale == nil ? .learned : .device, pollingReason: pollingReason),
            hasBase: true)
    }

    /// A base sensor is an IIO device, polled through libiio at the display's rate.
    func openBase(_ found: AccelerometerCandidate) throws(SensorError) -> OpenedBase {
        let device = try IIODevice(id: found.id, requestedRate: capture.rate)
        return OpenedBase(reader: IIOPolledAccelerometer(device), name: device.name, scale: device.scale)
    }

    /// An accelerometer that is an input device: read by polling, at iio-sensor-proxy's scale for them, with no base
    /// sensor beside it. Opening one asks nothing of it, so it is read once first: one that cannot be read (no
    /// absolute axes) is no sensor, tried again as an IIO device that fails to open is.
    private func openInput(
        _ chosen: AccelerometerCandidate, node: String, reason: String
    ) throws(SensorError) -> OpenedAccelerometer {
        let input = InputAccelerometer(id: chosen.id, node: node)
        _ = try input.read()
        let (matrix, source) = mountMatrix(of: chosen)
        return OpenedAccelerometer(
            reader: .polled(input), scale: InputAccelerometer.scale, clock: nil,
            using: "using \(chosen.id) (\(node), an input device): \(reason)",
            description: SensorDescription(
                id: chosen.id, name: chosen.name ?? chosen.id, location: chosen.location, mode: .polled, rate: capture.rate,
                mountMatrix: matrix, mountMatrixSource: source, scaleSource: .device,
                pollingReason: "an input device, read through EVIOCGABS"),
            hasBase: false)
    }

    /// A buffer-only accelerometer that umockdev emulates without a node, its scans read from `file`
    /// (``ScanFileAccelerometer``) at the polling pace, with no base sensor beside it.
    private func openScanFile(
        _ chosen: AccelerometerCandidate, file: String, reason: String
    ) throws(SensorError) -> OpenedAccelerometer {
        let reader = try ScanFileAccelerometer(id: chosen.id, sysfsPath: chosen.path, file: file)
        let (matrix, source) = mountMatrix(of: chosen)
        return OpenedAccelerometer(
            reader: .polled(reader), scale: reader.scale, clock: nil,
            using: "using \(chosen.id) (its buffer's scans read from \(file), as under umockdev it has no node): \(reason)",
            description: SensorDescription(
                id: chosen.id, name: reader.name ?? chosen.name ?? chosen.id, location: chosen.location, mode: .buffered,
                rate: capture.rate, mountMatrix: matrix, mountMatrixSource: source,
                scaleSource: reader.scale == nil ? .learned : .device),
            hasBase: false)
    }

    /// The candidate's mount matrix and where it came from; each problem met on the way is logged.
    private func mountMatrix(of chosen: AccelerometerCandidate) -> (MountMatrix, SensorDescription.MatrixSource) {
        let (matrix, source, problems) = chosen.mountMatrix()
        for problem in problems { logger.warning("\(problem)") }
        return (matrix, source)
    }
}
