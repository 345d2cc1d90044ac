import OrientPosix
import OrientSampleSource
/// Chooses the accelerometer that drives the screen.
public enum SensorSelection {
    public enum Choice: Sendable, Equatable {
        case chosen(AccelerometerCandidate, reason: String)
        case none(reason: String)
    }

    /// A configured name, id or path wins; otherwise the first display sensor (by id). A base (keyboard)
    /// sensor is used only when configured, since it turns with the keyboard, not the screen.
    public static func choose(from candidates: [AccelerometerCandidate], configured: String?) -> Choice {
        let sorted = candidates.sorted { $0.id.localizedStandardLess($1.id) }
        if let configured {
            let match = sorted.first {
                $0.id == configured || $0.path == configured || $0.name == configured
                    || configured.hasSuffix("/" + $0.id)
            }
            if let match { return .chosen(match, reason: "configured as \(configured)") }
            return .none(reason: "no accelerometer matches the configured device \(configured)")
        }
        if let display = sorted.first(where: { $0.location == .display }) {
            let others = sorted.count - 1
            return .chosen(display, reason: others > 0 ? "the display accelerometer (of \(sorted.count))" : "the only accelerometer")
        }
        if sorted.isEmpty { return .none(reason: "no IIO accelerometer found") }
        return .none(reason: "only a base (keyboard) accelerometer found; name it as the device to use it anyway")
    }
}

extension SensorSelection {
    /// The keyboard-base sensor of a convertible beside the chosen display sensor: the first by id whose location
    /// is `base`; `nil` on a tablet, or when the base itself was configured as the device to use.
    public static func base(from candidates: [AccelerometerCandidate], display: AccelerometerCandidate)
        -> AccelerometerCandidate?
    {
        guard display.location == .display else { return nil }
        return candidates.sorted { $0.id.localizedStandardLess($1.id) }
            .first { $0.location == .base && $0.id != display.id }
    }
}
