import OrientCore

/// What a sample source reports.
public enum SensorEvent: Sendable, Equatable {
    /// A sensor was opened; its samples follow.
    case opened(SensorDescription)
    /// One reading in the sensor's own frame, in m/s² (scale and offset applied, mount matrix not applied),
    /// on a monotonic clock in seconds.
    case sample(AccelSample)
    /// The live source learned 1 g from readings at rest (the driver gives no scale, or a wrong one) and corrects
    /// the samples that follow by it. It has logged it; `doctor` shows it.
    case gravityLearned(GravityCorrection)
    /// The same for a convertible's base sensor: the `base` of the samples that follow is corrected by it.
    case baseGravityLearned(GravityCorrection)
    /// The lid switch (SW_LID) reads shut or open: sent when the sensor opens, and at each change. A device with
    /// no lid switch sends none.
    case lid(closed: Bool)
    /// A convertible's base sensor went away, or its reads keep failing; the display's samples go on, without
    /// `base`. Posture and tablet mode are unknown until base readings come back.
    case baseLost(reason: String)
    /// A kernel hinge sensor went away, or its reads keep failing; the display's samples go on, without `hinge`.
    /// Posture and tablet mode are unknown until a base sensor or a hinge sensor reads again.
    case hingeLost(reason: String)
    /// The sensor went away, or its reads keep failing; `opened` follows when one (re)appears or reads again.
    case lost(reason: String)
    /// No usable sensor is present (at start, or after the last one went away). Not fatal: sources keep waiting.
    case noSensor(reason: String)
    /// Something the capture ran into and handled on its own (a buffer that gave nothing, opened again or polled;
    /// one that delivers again), as the log said it: counted in `status`, shown by `orientd doctor`.
    case incident(String)
    /// A replayed trace ran out (sources that end send this last).
    case sourceEnded
}
