import OrientCore

/// The text of the trace format, shared by recording, tests and tools:
///
/// ```
/// # orientd trace v1
/// # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
/// # source: iio:device0 accel_3d
/// t,x,y,z
/// 0.000000,0.12,-9.79,0.33
/// ```
///
/// `t` is seconds on any monotonic origin and must increase from line to line; x, y, z are m/s² in the sensor's
/// own frame (scale and offset applied, mount matrix not applied).
///
/// Written traces carry t to the microsecond and x, y, z to 1e-5 m/s², far below what any accelerometer resolves
/// (a 12-bit ±2 g sensor steps by 0.0096 m/s²). Readers accept any precision.
public enum TraceFormat {
    public static let version = 1
    public static let magic = "# orientd trace v\(version)"
    public static let headerRow = "t,x,y,z"

    /// Everything before the first sample, ending with the header row and a newline.
    public static func preamble(_ metadata: TraceMetadata) -> String {
        var text = magic + "\n"
        if let matrix = metadata.mountMatrix { text += "# mount-matrix: \(matrix.text)\n" }
        if let source = metadata.source { text += "# source: \(oneLine(source))\n" }
        for entry in metadata.entries where entry.key != "mount-matrix" && entry.key != "source" {
            text += "# \(entry.key): \(oneLine(entry.value))\n"
        }
        return text + headerRow + "\n"
    }

    public static let timeDecimals = 6
    public static let accelerationDecimals = 5

    /// One sample as a line with its newline, at the format's fixed precision.
    public static func line(_ sample: AccelSample) -> String {
        let a = sample.acceleration
        return fixed(sample.time, timeDecimals) + "," + fixed(a.x, accelerationDecimals) + ","
            + fixed(a.y, accelerationDecimals) + "," + fixed(a.z, accelerationDecimals) + "\n"
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
