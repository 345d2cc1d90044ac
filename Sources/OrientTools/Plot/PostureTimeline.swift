import OrientCore

/// What a plot shows of a two-sensor trace beside the orientation: the hinge angle θ, the posture and tablet mode.
struct PostureTimeline {
    let initialPosture: Posture
    let initialTabletMode: Bool?
    /// Where the interface turned: the heading says, since it shapes the interface band.
    let rotateIn: RotateIn
    /// Where tablet mode turns on and off, marked on the θ panel.
    let tabletModeAngles: (on: Double, off: Double)
    /// θ in degrees, from the samples in which it was known, for drawing only. Lane 0 is θ; SIMD has no single
    /// lane, so lane 1 is unused.
    var angles: MinMaxDecimator<SIMD2<Double>>
    /// Stretches in which θ was unknown, from the first sample without it to the first with it again: the θ line
    /// breaks across them.
    var unknownAngle: [ClosedRange<Double>] = []
    var postureChanges: [(time: Double, value: Posture)] = []
    var tabletModeChanges: [(time: Double, value: TabletModeBand)] = []
    /// When θ became unknown, while it is.
    private var unknownSince: Double?

    init(engine: PostureEngine, rotateIn: RotateIn, bins: Int) {
        initialPosture = engine.posture
        initialTabletMode = engine.tabletMode
        self.rotateIn = rotateIn
        let settings = engine.estimator.settings
        tabletModeAngles = (settings.tabletModeOnAngle, settings.tabletModeOffAngle)
        angles = MinMaxDecimator(capacity: bins)
    }

    /// Records one sample: θ after it (`nil` while unknown) and what it changed.
    mutating func record(time: Double, angle: Double?, change: PostureEngine.Change?) {
        if let angle {
            angles.add(time: time, values: SIMD2(angle, 0))
            if let since = unknownSince {
                unknownAngle.append(since...time)
                unknownSince = nil
            }
        } else if unknownSince == nil {
            unknownSince = time
        }
        if let posture = change?.posture { postureChanges.append((time, posture)) }
        if let tabletMode = change?.tabletMode { tabletModeChanges.append((time, TabletModeBand(tabletMode))) }
    }

    /// The timeline with a stretch of unknown θ that is still open ending at `last`.
    func finished(at last: Double?) -> PostureTimeline {
        var result = self
        if let since = unknownSince, let last {
            result.unknownAngle.append(since...last)
            result.unknownSince = nil
        }
        return result
    }
}

/// Tablet mode as its band shows it: on, off, or not known yet.
enum TabletModeBand: String, CustomStringConvertible {
    case unknown
    case off
    case on

    init(_ mode: Bool?) {
        self = mode.map { $0 ? .on : .off } ?? .unknown
    }

    var description: String { rawValue }
}
