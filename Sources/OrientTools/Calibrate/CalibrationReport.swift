import FoundationEssentials
import OrientCore

/// What `orientd calibrate` measured and did, for people (``text``) and scripts (Codable, `--json`).
public struct CalibrationReport: Codable, Sendable {
    public struct Sensor: Codable, Sendable {
        public var id: String
        public var name: String
        /// `display` or `base`.
        public var location: String
        /// The matrix to use, in hwdb's form.
        public var mountMatrix: String
        /// As fitted to the poses, before snapping.
        public var measured: String
        /// Whether ``mountMatrix`` is the axis-aligned rotation nearest the measured one.
        public var snapped: Bool
        public var degreesFromAxes: Double
        /// The poses that did not fit the matrix, each read through it.
        public var checks: [Check]
        /// The matrix the system gives the sensor now, and where it comes from.
        public var inUse: String
        public var inUseSource: String
        /// The matrix in use (and for a base, its location) is already right: no block is needed.
        public var alreadyRight: Bool
        /// What is right or wrong about it, in words.
        public var verdict: String
        /// The hwdb match line; `nil` when it could not be built (see ``CalibrationReport/notes``).
        public var match: String?
        /// The hwdb record for this sensor, when one is needed.
        public var hwdb: String?
    }

    /// A pose that checked a matrix.
    public struct Check: Codable, Sendable {
        /// The pose's number in the session, from 1.
        public var pose: Int
        /// Gravity in the device frame in that pose, through ``Sensor/mountMatrix``, in g.
        public var reading: [Double]
        /// Degrees from the direction the pose allows.
        public var error: Double
    }

    public struct Pose: Codable, Sendable {
        /// The pose's number in the session, from 1.
        public var pose: Int
        /// The pose it was taken as (``OrientCore/CalibrationPose``'s raw value).
        public var name: String
        /// The mean reading in the sensor's own frame, m/s².
        public var display: [Double]
        public var base: [Double]?
    }

    public var display: Sensor
    public var base: Sensor?
    public var poses: [Pose]
    public var hwdbFile: String
    public var written: Bool
    /// `systemd-hwdb update` and `udevadm trigger` ran and succeeded.
    public var hwdbUpdated: Bool
    public var notes: [String]

    enum CodingKeys: String, CodingKey {
        case display, base, poses, hwdbFile, written, hwdbUpdated, notes
    }

    /// As synthesised, except that `base` is `null` on a tablet rather than left out.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(display, forKey: .display)
        try c.encode(base, forKey: .base)
        try c.encode(poses, forKey: .poses)
        try c.encode(hwdbFile, forKey: .hwdbFile)
        try c.encode(written, forKey: .written)
        try c.encode(hwdbUpdated, forKey: .hwdbUpdated)
        try c.encode(notes, forKey: .notes)
    }

    /// The report as a JSON document for `--json` (``ToolJSON``).
    public func json() throws -> String {
        String(decoding: try ToolJSON.encoder().encode(self), as: UTF8.self)
    }

    /// The records for systemd: what a pull request to hwdb.d/60-sensor.hwdb adds.
    public var records: [String] { [display, base].compactMap { $0?.hwdb } }

    public var text: String {
        var lines: [String] = []
        for sensor in [display, base].compactMap({ $0 }) {
            lines.append(
                "\(sensor.location == "base" ? "Base" : "Display") accelerometer \(sensor.name) (\(sensor.id)): \(sensor.mountMatrix)"
            )
            let how =
                sensor.snapped
                ? "the axis-aligned rotation \(PoseText.format(sensor.degreesFromAxes))° from the measured \(sensor.measured)"
                : "as measured, \(PoseText.format(sensor.degreesFromAxes))° from any axis-aligned rotation"
            let numbers = sensor.checks.map { String($0.pose) }.joined(separator: " and ")
            let checked = sensor.checks.count == 1 ? "pose \(numbers) agrees" : "poses \(numbers) agree"
            let worst = sensor.checks.map(\.error).max() ?? 0
            lines.append("  \(how); \(checked) within \(PoseText.format(worst))°")
            lines.append("  in use now: \(sensor.inUse) (from \(sensor.inUseSource)): \(sensor.verdict)")
        }
        let records = self.records
        if [display, base].compactMap({ $0 }).allSatisfy(\.alreadyRight) {
            lines.append("")
            lines.append("The matrices in use are already right: nothing to write.")
        } else if records.isEmpty {
            lines.append("")
            lines.append("No hwdb block (see the note); the matrix can go in orientd.conf as mount-matrix instead.")
        } else {
            lines.append("")
            lines.append(written ? "Written to \(hwdbFile):" : "hwdb quirk (not written):")
            lines.append(contentsOf: records)
            lines.append("")
            lines.append("To have it for everyone with this model, send it to systemd: a pull request to")
            lines.append(
                "https://github.com/systemd/systemd adding the lines above to hwdb.d/60-sensor.hwdb, in the section")
            lines.append(
                "for the vendor, sorted by match, saying that orientd calibrate measured it and that the screen now")
            lines.append("turns the right way in all four orientations and face up.")
        }
        for note in notes { lines.append("Note: \(note)") }
        return lines.joined(separator: "\n")
    }
}
