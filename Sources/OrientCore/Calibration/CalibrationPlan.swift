/// The poses a calibration asks for, in order.
///
/// The order is chosen so that a session that takes a pose one step early (the device set down still somewhere
/// before the person made pose 1) fails a check instead of fitting a wrong matrix. Any three perpendicular poses fit
/// some rotation: with upright, left edge up and flat alone, a tablet that lay face up when pose 1 was taken gives
/// flat, upright, left edge up, the right three turned a third of a turn about a diagonal, and the last "confirms" a
/// matrix that far off.
/// - A tablet turns on to upside down before it lies flat. Shifted, the pose taken as flat is really upside down,
///   which the shifted matrix reads as an edge, so one check or the other fails whatever pose came first.
/// - A convertible's base settles it: shifted, its two fitting poses both lie flat (no matrix) or its check fails.
public enum CalibrationPlan {
    public static func poses(convertible: Bool) -> [CalibrationPose] {
        convertible ? [.upright, .leftEdgeUp, .flat] : [.upright, .leftEdgeUp, .upsideDown, .flat]
    }
}
