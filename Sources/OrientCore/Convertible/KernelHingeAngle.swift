/// What a kernel hinge sensor (Intel's `hinge`, ChromeOS's `cros-ec-lid-angle`) said at one read.
public enum KernelHingeAngle: Sendable, Hashable {
    /// The hinge's opening in degrees: 0 closed, 180 flat, 360 folded back into a tablet.
    case degrees(Double)
    /// The sensor answered without a usable angle (cros-ec's 500, a value that is not one): the posture holds.
    case unknown

    /// The angle, or `nil` when unknown.
    public var degrees: Double? {
        if case .degrees(let value) = self { value } else { nil }
    }
}
