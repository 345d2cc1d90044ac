import OrientCore

/// What a sample source says about the sensor behind it: enough for `status`, `doctor` and the logs.
public struct SensorDescription: Sendable, Equatable {
    /// How samples are captured.
    public enum CaptureMode: String, Sendable {
        case buffered, polled, replay
    }

    /// Where the sensor sits. A base (keyboard) sensor never drives the screen unless configured to.
    public enum Location: String, Sendable {
        case display, base
    }

    /// Where the mount matrix came from, first found wins in this order.
    public enum MatrixSource: Sendable, Equatable, CustomStringConvertible {
        /// The configuration's (or command line's) override.
        case configuration
        /// The udev property `ACCEL_MOUNT_MATRIX` (from hwdb).
        case udevProperty
        /// A sysfs attribute such as `in_accel_mount_matrix`.
        case sysfs(attribute: String)
        /// A trace's `# mount-matrix:` line.
        case trace
        /// Nothing gave one.
        case identity

        public var description: String {
            switch self {
            case .configuration: "configuration"
            case .udevProperty: "udev ACCEL_MOUNT_MATRIX"
            case .sysfs(let attribute): "sysfs \(attribute)"
            case .trace: "trace metadata"
            case .identity: "none (identity)"
            }
        }
    }

    /// Where the m/s² scale came from.
    public enum ScaleSource: Sendable, Equatable {
        /// The driver's scale attribute.
        case device
        /// The driver gives none: 1 g is learned from readings at rest.
        case learned
        /// Samples are already in m/s² (a trace).
        case none
    }

    /// `iio:device0`, or a trace's path.
    public var id: String
    /// The driver's name (`accel_3d`), or a trace's `source`.
    public var name: String
    /// `accel_3d (iio:device0)`, or the id alone when the driver has no name.
    public var displayName: String { name == id ? id : "\(name) (\(id))" }
    public var location: Location
    public var mode: CaptureMode
    /// Samples per second as the device actually delivers them, when known.
    public var rate: Double?
    /// The matrix as found, before the handedness repair (the engine repairs it unless told not to).
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: MatrixSource
    /// A convertible's keyboard-base sensor, read with the display's (``AccelSample/base``); `nil` when there is
    /// none.
    public var base: BaseSensorDescription?
    /// The base sensor's mount matrix as found; `nil` when there is no base sensor.
    public var baseMountMatrix: MountMatrix? { base?.mountMatrix }
    /// A kernel hinge sensor, read with the display's (``AccelSample/hinge``); `nil` when there is none.
    public var hinge: HingeSensorDescription?
    /// Whether a base sensor or a hinge sensor tells the hinge angle, and so the posture.
    public var readsPosture: Bool { base != nil || hinge != nil }
    public var scaleSource: ScaleSource
    /// Why a live sensor is polled rather than captured buffered (a missing permission, a driver without a buffer).
    public var pollingReason: String?

    public init(
        id: String, name: String, location: Location = .display, mode: CaptureMode, rate: Double? = nil,
        mountMatrix: MountMatrix = .identity, mountMatrixSource: MatrixSource = .identity,
        baseMountMatrix: MountMatrix? = nil, base: BaseSensorDescription? = nil, hinge: HingeSensorDescription? = nil,
        scaleSource: ScaleSource = .device, pollingReason: String? = nil
    ) {
        self.id = id
        self.name = name
        self.location = location
        self.mode = mode
        self.rate = rate
        self.mountMatrix = mountMatrix
        self.mountMatrixSource = mountMatrixSource
        // A matrix alone (a test, a source that knows no more) describes an unnamed base under the display's id.
        self.base = base ?? baseMountMatrix.map {
            BaseSensorDescription(id: id, name: name, mountMatrix: $0, mountMatrixSource: .identity)
        }
        self.hinge = hinge
        self.scaleSource = scaleSource
        self.pollingReason = pollingReason
    }
}

extension SensorDescription {
    /// The description with the matrix in use when the configuration names one (`mount-matrix`), which wins over
    /// the sensor's own; unchanged when `override` is nil.
    public func overridingMountMatrix(_ override: MountMatrix?) -> SensorDescription {
        guard let override else { return self }
        var result = self
        result.mountMatrix = override
        result.mountMatrixSource = .configuration
        return result
    }
}

/// A convertible's keyboard-base accelerometer, as the source found it beside the display's: for `status`,
/// `doctor` and `record`.
public struct BaseSensorDescription: Sendable, Equatable {
    /// `iio:device1`, or a trace's path.
    public var id: String
    /// The driver's name, or what a trace says of its base sensor.
    public var name: String
    /// The sysfs path of a live sensor.
    public var path: String?
    /// The matrix as found, before the handedness repair.
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: SensorDescription.MatrixSource
    /// The driver's scale per axis; `nil` when it gives none (1 g is then learned at rest) or for a trace.
    public var scale: Vector3?

    public init(
        id: String, name: String, path: String? = nil, mountMatrix: MountMatrix, mountMatrixSource: SensorDescription.MatrixSource,
        scale: Vector3? = nil
    ) {
        self.id = id
        self.name = name
        self.path = path
        self.mountMatrix = mountMatrix
        self.mountMatrixSource = mountMatrixSource
        self.scale = scale
    }

    /// `accel_3d (iio:device1)`, or the id alone when the driver has no name.
    public var displayName: String { name == id ? id : "\(name) (\(id))" }
}

/// A kernel hinge sensor beside the display's accelerometer: for `status`, `doctor` and `record`.
public struct HingeSensorDescription: Sendable, Equatable {
    /// `iio:device2`, or a trace's path.
    public var id: String
    /// The IIO name, which names the driver: `hinge` (hid-sensor-custom-intel-hinge) or `cros-ec-lid-angle`; a
    /// trace's is `trace`.
    public var name: String
    /// The sysfs path of a live sensor.
    public var path: String?

    public init(id: String, name: String, path: String? = nil) {
        self.id = id
        self.name = name
        self.path = path
    }

    /// `hinge (iio:device2)`.
    public var displayName: String { name == id ? id : "\(name) (\(id))" }
}
