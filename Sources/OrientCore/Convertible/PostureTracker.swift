import RealModule

/// Turns hinge angles into a posture and a tablet-mode switch, with hysteresis and a settle time.
///
/// While θ is unknown (hinge vertical, motion) nothing changes and nothing pending counts on: a device carried
/// about or held as a book keeps its posture and its tablet mode.
public struct PostureTracker: Sendable {
    /// What one update changed.
    public struct Change: Sendable, Equatable {
        public var posture: Posture?
        public var tabletMode: Bool?

        public init(posture: Posture? = nil, tabletMode: Bool? = nil) {
            self.posture = posture
            self.tabletMode = tabletMode
        }

        public var isEmpty: Bool { posture == nil && tabletMode == nil }
    }

    public let settings: PostureSettings
    public private(set) var posture: Posture = .unknown
    /// `nil` until the first angle is read.
    public private(set) var tabletMode: Bool?

    private var proposedPosture: Posture = .unknown
    private var postureSince: Double = 0
    private var proposedTabletMode: Bool?
    private var tabletModeSince: Double = 0

    public init(settings: PostureSettings = PostureSettings()) {
        self.settings = settings
    }

    /// Back to `unknown`, as when a sensor goes away.
    public mutating func reset() {
        posture = .unknown
        tabletMode = nil
        proposedPosture = .unknown
        proposedTabletMode = nil
    }

    /// Feeds the angle read at `time` (or `nil`) and the filtered base reading in its device frame.
    public mutating func update(time: Double, angle: Double?, base: Vector3) -> Change {
        guard let angle else {
            proposedPosture = posture
            proposedTabletMode = tabletMode
            return Change()
        }
        var change = Change()
        let nextPosture = proposePosture(angle: angle, base: base)
        if nextPosture != proposedPosture {
            proposedPosture = nextPosture
            postureSince = time
        }
        if proposedPosture != posture, time - postureSince >= settings.settleTime {
            posture = proposedPosture
            change.posture = posture
        }
        let nextTabletMode = proposeTabletMode(angle: angle)
        if nextTabletMode != proposedTabletMode {
            proposedTabletMode = nextTabletMode
            tabletModeSince = time
        }
        if proposedTabletMode != tabletMode, time - tabletModeSince >= settings.settleTime {
            tabletMode = proposedTabletMode
            change.tabletMode = tabletMode
        }
        return change
    }

    private func proposeTabletMode(angle: Double) -> Bool {
        if angle >= settings.tabletModeOnAngle { return true }
        if angle <= settings.tabletModeOffAngle { return false }
        return tabletMode ?? false
    }

    /// The band θ falls in, the current posture kept while θ is within its band widened by the hysteresis.
    private func proposePosture(angle: Double, base: Vector3) -> Posture {
        let h = settings.bandHysteresis
        let keep: Bool =
            switch posture {
            case .closed: angle < Band.closedBelow + h
            case .laptop: angle >= Band.closedBelow - h && angle < Band.flatFrom + h
            case .flat: angle >= Band.flatFrom - h && angle <= Band.flatTo + h
            case .tent, .stand: angle > Band.flatTo - h && angle < Band.tabletFrom + h
            case .tablet: angle >= Band.tabletFrom - h
            case .unknown: false
            }
        let band = keep ? posture : Band.posture(at: angle)
        guard band == .tent || band == .stand else { return band }
        // Beyond flat: on its keys or on its edges.
        let fromFaceDown = Double.acos(max(-1, min(1, base.z / max(base.length, .ulpOfOne)))) * 180 / .pi
        let standLimit = posture == .stand ? settings.standExitAngle : settings.standEnterAngle
        return fromFaceDown < standLimit ? .stand : .tent
    }

    /// The posture bands, in degrees of θ.
    public enum Band {
        public static let closedBelow = 10.0
        public static let flatFrom = 170.0
        public static let flatTo = 190.0
        public static let tabletFrom = 330.0

        /// The posture of a band, without hysteresis; `tent` stands for both postures beyond flat.
        static func posture(at angle: Double) -> Posture {
            if angle < closedBelow { return .closed }
            if angle < flatFrom { return .laptop }
            if angle <= flatTo { return .flat }
            if angle < tabletFrom { return .tent }
            return .tablet
        }
    }
}
