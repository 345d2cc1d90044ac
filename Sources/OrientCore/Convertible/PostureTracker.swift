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
    private var settledPosture = SettlingValue(Posture.unknown)
    private var settledTabletMode = SettlingValue<Bool?>(nil)

    public var posture: Posture { settledPosture.value }
    /// `nil` until the first angle is read.
    public var tabletMode: Bool? { settledTabletMode.value }

    public init(settings: PostureSettings = PostureSettings()) {
        self.settings = settings
    }

    /// Back to `unknown`, as when a sensor goes away.
    public mutating func reset() {
        settledPosture = SettlingValue(.unknown)
        settledTabletMode = SettlingValue(nil)
    }

    /// Feeds the angle read at `time` (or `nil`) and the filtered base reading in its device frame.
    public mutating func update(time: Double, angle: Double?, base: Vector3) -> Change {
        guard let angle else {
            settledPosture.cancel()
            settledTabletMode.cancel()
            return Change()
        }
        var change = Change()
        let settle = settings.settleTime
        if settledPosture.propose(proposePosture(angle: angle, base: base), at: time, settle: settle) {
            change.posture = posture
        }
        if settledTabletMode.propose(proposeTabletMode(angle: angle), at: time, settle: settle) {
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
