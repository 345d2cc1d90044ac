import OrientCore

/// The text of the trace format, shared by recording, tests and tools. A display-only trace (v1):
///
/// ```
/// # orientd trace v1
/// # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
/// # source: iio:device0 accel_3d
/// t,x,y,z
/// 0.000000,0.12,-9.79,0.33
/// ```
///
/// A convertible's trace (v2) also has the keyboard base's sensor, read at the same time, and its mount matrix:
///
/// ```
/// # orientd trace v2
/// # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
/// # base-mount-matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1
/// t,x,y,z,bx,by,bz
/// 0.000000,0.12,-9.79,0.33,0.05,0.10,-9.81
/// ```
///
/// A trace of a machine with a kernel hinge sensor (v3) has its angle last, after the display's readings or after
/// the base's, with `unknown` where the sensor could not tell:
///
/// ```
/// # orientd trace v3
/// t,x,y,z,hinge
/// 0.000000,0.12,-9.79,0.33,104.00
/// 0.020000,0.12,-9.79,0.33,unknown
/// ```
///
/// `t` is seconds on any monotonic origin and must increase from line to line; x, y, z (and bx, by, bz) are m/s²
/// in each sensor's own frame (scale and offset applied, mount matrix not applied); hinge is degrees from 0 to
/// 360. The header row decides the columns, under any of the magic lines; a magic line of any other version is
/// refused.
///
/// Written traces carry t to the microsecond, x, y, z to 1e-5 m/s², far below what any accelerometer resolves
/// (a 12-bit ±2 g sensor steps by 0.0096 m/s²), and the hinge to 0.01°. Readers accept any precision.
public enum TraceFormat {
    /// The versions this orientd reads.
    public static let versions = 1...3

    /// The columns a trace with this metadata is written with: the base's too when it has a base mount matrix.
    public static func columns(for metadata: TraceMetadata) -> TraceColumns {
        metadata.baseMountMatrix == nil ? .display : .displayAndBase
    }

    /// Everything before the first sample, ending with the header row and a newline.
    /// - Parameter columns: the columns to announce; by default, as ``columns(for:)`` says.
    public static func preamble(_ metadata: TraceMetadata, columns: TraceColumns? = nil) -> String {
        let columns = columns ?? Self.columns(for: metadata)
        var text = "# orientd trace v\(columns.version)\n"
        if let matrix = metadata.mountMatrix { text += "# mount-matrix: \(matrix.text)\n" }
        if let matrix = metadata.baseMountMatrix { text += "# base-mount-matrix: \(matrix.text)\n" }
        if let source = metadata.source { text += "# source: \(oneLine(source))\n" }
        if let natural = metadata.naturalOrientation { text += "# natural-orientation: \(natural.rawValue)\n" }
        for entry in metadata.entries where !TraceMetadata.fieldKeys.contains(entry.key) {
            text += "# \(entry.key): \(oneLine(entry.value))\n"
        }
        return text + columns.headerRow + "\n"
    }

    public static let timeDecimals = 6
    public static let accelerationDecimals = 5
    public static let hingeDecimals = 2
    /// The hinge column's value where the kernel sensor could not tell the angle (``KernelHingeAngle/unknown``).
    public static let unknownHingeAngle = "unknown"

    /// One sample as a line with its newline, at the format's fixed precision: the display's reading, then the
    /// base's and the hinge angle when it carries them.
    public static func line(_ sample: AccelSample) -> String {
        var text = fixed(sample.time, timeDecimals) + "," + vector(sample.acceleration)
        if let base = sample.base { text += "," + vector(base) }
        if let hinge = sample.hinge {
            text += "," + (hinge.degrees.map { fixed($0, hingeDecimals) } ?? unknownHingeAngle)
        }
        return text + "\n"
    }

    private static func vector(_ a: Vector3) -> String {
        fixed(a.x, accelerationDecimals) + "," + fixed(a.y, accelerationDecimals) + "," + fixed(a.z, accelerationDecimals)
    }

    /// `value` with exactly `decimals` digits after the point, without Foundation's locale-dependent formatting.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return "\(value)" }
        let units = Int64(scaled)
        let whole = String(abs(units) / scale)
        let fraction = String(abs(units) % scale)
        let padding = String(repeating: "0", count: decimals - fraction.count)
        return (units < 0 ? "-" : "") + whole + "." + padding + fraction
    }

    /// By unicode scalars: "\r\n" is a single Character, equal to neither "\r" nor "\n".
    private static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(scalar == "\n" || scalar == "\r" ? " " : scalar) }
        return String(result)
    }
}
