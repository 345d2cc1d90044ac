import OrientCore
import OrientPosix
import OrientSampleSource

/// An IIO accelerometer as udev describes it, before it is opened.
public struct AccelerometerCandidate: Sendable, Equatable {
    /// `iio:device0`.
    public var id: String
    /// The sysfs path, e.g. `/sys/devices/.../iio:device0`.
    public var path: String
    /// The driver's `name` attribute, when it has one.
    public var name: String?
    /// udev's `ACCEL_LOCATION`.
    public var locationProperty: String?
    /// The sysfs `label` (`accel-base`, `accel-display`).
    public var label: String?
    /// The sysfs `location`.
    public var locationAttribute: String?
    /// udev's `ACCEL_MOUNT_MATRIX`.
    public var mountMatrixProperty: String?
    /// sysfs mount matrix attributes that exist, by name.
    public var mountMatrixAttributes: [String: String]
    /// The event node (`/dev/input/event4`) of an accelerometer that is an input device; nil for an IIO one.
    public var inputNode: String?
    /// An IIO accelerometer with scan elements but no `in_accel_*_raw`: it can be read only through its buffer.
    public var bufferOnly: Bool

    public init(
        id: String, path: String, name: String? = nil, locationProperty: String? = nil, label: String? = nil,
        locationAttribute: String? = nil, mountMatrixProperty: String? = nil, mountMatrixAttributes: [String: String] = [:],
        inputNode: String? = nil, bufferOnly: Bool = false
    ) {
        self.id = id
        self.path = path
        self.name = name
        self.locationProperty = locationProperty
        self.label = label
        self.locationAttribute = locationAttribute
        self.mountMatrixProperty = mountMatrixProperty
        self.mountMatrixAttributes = mountMatrixAttributes
        self.inputNode = inputNode
        self.bufferOnly = bufferOnly
    }

    /// The sysfs attributes that may hold a mount matrix, in the order they are tried.
    public static let mountMatrixAttributeNames = ["in_accel_mount_matrix", "mount_matrix", "in_mount_matrix"]

    /// udev's `ACCEL_LOCATION`, else the sysfs `label`, else the sysfs `location`; `display` when none says.
    public var location: SensorDescription.Location {
        if let value = locationProperty?.trimmingSpaces, !value.isEmpty { return value == "base" ? .base : .display }
        if let value = label?.trimmingSpaces {
            if value == "accel-base" { return .base }
            if value == "accel-display" { return .display }
        }
        if let value = locationAttribute?.trimmingSpaces, value == "base" || value == "lid" {
            return value == "base" ? .base : .display
        }
        return .display
    }

    /// Where ``location`` came from, in the order it is looked for, for `doctor`.
    public var locationSource: String {
        if let value = locationProperty?.trimmingSpaces, !value.isEmpty { return "udev ACCEL_LOCATION" }
        if let value = label?.trimmingSpaces, value == "accel-base" || value == "accel-display" { return "sysfs label" }
        if let value = locationAttribute?.trimmingSpaces, value == "base" || value == "lid" { return "sysfs location" }
        return "none given, so display"
    }

    /// The mount matrix and where it came from: the override, udev, then sysfs, else identity.
    /// A malformed matrix is skipped (and reported) in favour of the next source.
    public func mountMatrix() -> (MountMatrix, SensorDescription.MatrixSource, [String]) {
        var problems: [String] = []
        if let text = mountMatrixProperty {
            do {
                return (try MountMatrix(parsing: text), .udevProperty, problems)
            } catch {
                problems.append("\(id): ACCEL_MOUNT_MATRIX ignored: \(error)")
            }
        }
        for attribute in Self.mountMatrixAttributeNames {
            guard let text = mountMatrixAttributes[attribute] else { continue }
            do {
                return (try MountMatrix(parsing: text), .sysfs(attribute: attribute), problems)
            } catch {
                problems.append("\(id): \(attribute) ignored: \(error)")
            }
        }
        return (.identity, .identity, problems)
    }
}

extension String {
    var trimmingSpaces: String {
        String(self.trimmingWhitespace())
    }
}
