import OrientCore
import OrientTrace

/// Synthetic two-sensor traces of a convertible whose base lies still on a desk, keys up, while its lid moves.
public enum ConvertibleTrace {
    public static let g = 9.80665
    /// What the base reads on the desk, in its device frame: gravity into the keys.
    public static let baseOnDesk = Vector3(0, 0, -g)

    /// A sample at `time` with the lid at `theta`: the display's reading follows from the base's.
    public static func sample(time: Double, theta: Double, base: Vector3 = baseOnDesk) -> AccelSample {
        AccelSample(time: time, acceleration: HingeGeometry.display(fromBase: base, hingeAngle: theta), base: base)
    }

    /// A laptop open at 100° for 2 s, folded back to 360° over 1 s, held there for 2 s, at 50 Hz.
    public static var fold: [AccelSample] {
        (0..<250).map { i in
            let t = Double(i) / 50
            let theta = t < 2 ? 100 : min(360, 100 + 260 * (t - 2))
            return sample(time: t, theta: theta)
        }
    }

    public static func write(_ samples: [AccelSample], metadata: TraceMetadata = TraceMetadata()) throws -> String {
        try TraceFiles.write(samples, metadata: metadata, name: "convertible.trace")
    }
}
