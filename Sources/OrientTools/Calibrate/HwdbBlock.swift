import OrientCore

/// One sensor's quirk as `orientd calibrate` writes it: a comment that marks it as calibrate's own, the match line,
/// and the properties.
///
/// ```
/// # orientd calibrate: display accelerometer accel_3d
/// sensor:modalias:platform:HID-SENSOR-200073:dmi:*svnLENOVO:*pn81X2:*
///  ACCEL_MOUNT_MATRIX=0, -1, 0; -1, 0, 0; 0, 0, 1
/// ```
public struct HwdbBlock: Sendable, Hashable {
    /// The start of the comment line before each block calibrate wrote: it replaces those, and only those.
    public static let marker = "# orientd calibrate:"

    public var match: HwdbMatch
    public var mountMatrix: MountMatrix
    /// Adds ` ACCEL_LOCATION=base`.
    public var isBase: Bool
    /// What the comment names: `display accelerometer accel_3d`.
    public var sensorName: String

    public init(match: HwdbMatch, mountMatrix: MountMatrix, isBase: Bool, sensorName: String) {
        self.match = match
        self.mountMatrix = mountMatrix
        self.isBase = isBase
        self.sensorName = sensorName
    }

    /// The block's lines: the marker comment, the match, the properties (each indented by one space, as hwdb wants).
    public var lines: [String] {
        var lines = [
            "\(Self.marker) \(isBase ? "base" : "display") accelerometer \(Self.oneLine(sensorName))", match.line,
        ]
        lines.append(" ACCEL_MOUNT_MATRIX=\(mountMatrix.text)")
        if isBase { lines.append(" ACCEL_LOCATION=base") }
        return lines
    }

    /// The block without the comment: what goes into systemd's 60-sensor.hwdb.
    public var record: String { lines.dropFirst().joined(separator: "\n") }

    public var text: String { lines.joined(separator: "\n") + "\n" }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
