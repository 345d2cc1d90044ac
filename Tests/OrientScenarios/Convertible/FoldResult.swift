import OrientCore

/// What the convertible engine made of a scenario, judged against its expectations.
public struct FoldResult: Sendable {
    public let scenario: String
    /// Every broken expectation, as a sentence; empty when the scenario passed.
    public let failures: [String]
    /// Holds whose posture (and tablet mode) were right at their end, and all holds.
    public let holdsRight: Int
    public let holds: Int
    /// Tablet-mode commits that no move called for.
    public let spuriousTabletModeChanges: Int
    /// |θ read − θ true| on holds and typing, past the first half second, wherever θ was known (degrees).
    public let hingeErrors: [Double]
    /// The same on holds alone: typing flexes the lid about its θ by a degree, which a kernel sensor reads.
    public let holdHingeErrors: [Double]
    /// From the end of each fold into tablet mode to tablet mode on (0 when it came before the end), seconds.
    public let tabletModeReactions: [Double]
    /// From the end of each fold into a tablet to the `tablet` posture, seconds.
    public let tabletPostureReactions: [Double]
}

extension FoldScenario {
    /// A little time after a piece begins in which the previous move's commits may still land (filter and settle).
    static let grace = 0.4

    /// Runs the engine over the samples, as `orientd classify` would over a trace of them. With a hinge sensor, θ is
    /// the kernel's, and the truth it is scored against is the pose's, as with two accelerometers.
    public func run(
        settings: PostureSettings = PostureSettings(), classifier: ClassifierSettings = ClassifierSettings(),
        repairHandedness: Bool = true
    ) -> FoldResult {
        var engine = ConvertibleEngine(
            orientation: try! OrientationEngine(
                mountMatrix: mountMatrix, repairHandedness: repairHandedness, settings: classifier,
                tracker: try! InterfaceOrientationTracker()),
            posture: try! PostureEngine(
                baseMountMatrix: baseMountMatrix, repairHandedness: repairHandedness, settings: settings,
                motionGate: classifier))
        var postureCommits: [(Double, Posture)] = []
        var tabletCommits: [(Double, Bool)] = []
        var interfaceAt: [(Double, InterfaceOrientation)] = []
        var hingeErrors: [Double] = []
        var holdHingeErrors: [Double] = []
        var piece = 0
        for sample in samples {
            let update = try! engine.feed(sample)
            if let posture = update.posture?.posture { postureCommits.append((sample.time, posture)) }
            if case .some(.some(let mode)) = update.posture?.tabletMode { tabletCommits.append((sample.time, mode)) }
            if let interface = update.orientation?.interface { interfaceAt.append((sample.time, interface)) }
            while piece + 1 < expectations.count, expectations[piece + 1].start <= sample.time { piece += 1 }
            let e = expectations[piece]
            if let truth = e.hinge, sample.time - e.start > 0.5, let read = engine.posture?.hingeAngle {
                hingeErrors.append(abs(read - truth))
                if case .hold = e.kind { holdHingeErrors.append(abs(read - truth)) }
            }
        }
        return judge(
            postures: postureCommits, tabletModes: tabletCommits, interfaces: interfaceAt, hingeErrors: hingeErrors,
            holdHingeErrors: holdHingeErrors)
    }

    private func judge(
        postures: [(Double, Posture)], tabletModes: [(Double, Bool)], interfaces: [(Double, InterfaceOrientation)],
        hingeErrors: [Double], holdHingeErrors: [Double]
    ) -> FoldResult {
        var failures: [String] = []
        func format(_ t: Double) -> String { String(Double(Int(t * 1000)) / 1000) }
        func index(at t: Double) -> Int { expectations.lastIndex(where: { $0.start <= t }) ?? 0 }
        /// What a piece allows: its own kind, and within the grace time also what the piece before allowed.
        func allows(_ i: Int, posture: Posture) -> Bool {
            switch expectations[i].kind {
            case .hold(let p, _, _): p == posture
            case .move(let passing, _), .follow(let passing, _): passing.contains(posture)
            case .keep: false
            }
        }
        func allows(_ i: Int, tabletMode: Bool) -> Bool {
            switch expectations[i].kind {
            case .move(_, let mode), .follow(_, let mode): mode == tabletMode
            case .hold, .keep: false
            }
        }
        for (t, posture) in postures {
            let i = index(at: t)
            let late = i > 0 && t - expectations[i].start < Self.grace && allows(i - 1, posture: posture)
            if !allows(i, posture: posture) && !late {
                failures.append("\(name): spurious posture \(posture) at t=\(format(t)) during \(expectations[i].kind)")
            }
        }
        var spurious = 0
        for (t, mode) in tabletModes {
            let i = index(at: t)
            let late = i > 0 && t - expectations[i].start < Self.grace && allows(i - 1, tabletMode: mode)
            // The first commit of all only says what tablet mode is at start.
            if !allows(i, tabletMode: mode) && !late && t != tabletModes.first?.0 {
                spurious += 1
                failures.append("\(name): spurious tablet mode \(mode) at t=\(format(t))")
            }
        }
        func last<T>(_ list: [(Double, T)], at t: Double) -> T? { list.last(where: { $0.0 <= t })?.1 }
        var holds = 0
        var holdsRight = 0
        var tabletReactions: [Double] = []
        var postureReactions: [Double] = []
        for (i, e) in expectations.enumerated() {
            switch e.kind {
            case .hold(let posture, let mode, let interface):
                holds += 1
                let gotPosture = last(postures, at: e.end) ?? .unknown
                let gotMode = last(tabletModes, at: e.end)
                var right = true
                if gotPosture != posture {
                    right = false
                    failures.append("\(name): expected \(posture) at t=\(format(e.end)), have \(gotPosture)")
                }
                if gotMode != mode {
                    right = false
                    failures.append("\(name): expected tablet mode \(mode) at t=\(format(e.end)), have \(String(describing: gotMode))")
                }
                if let interface, let got = last(interfaces, at: e.end), got != interface {
                    failures.append("\(name): expected interface \(interface) at t=\(format(e.end)), have \(got)")
                }
                if right { holdsRight += 1 }
            case .move(let passing, let mode):
                let next = expectations[(i + 1)...].first(where: {
                    if case .move = $0.kind { return true } else { return false }
                })?.start ?? .infinity
                let before = last(tabletModes, at: e.start)
                if mode, before == false,
                    let on = tabletModes.first(where: { $0.0 >= e.start && $0.0 < next && $0.1 })
                {
                    tabletReactions.append(max(0, on.0 - e.end))
                }
                if passing.contains(.tablet), last(postures, at: e.start) != .tablet,
                    let tablet = postures.first(where: { $0.0 >= e.start && $0.0 < next && $0.1 == .tablet })
                {
                    postureReactions.append(max(0, tablet.0 - e.end))
                }
            case .keep, .follow:
                break
            }
        }
        return FoldResult(
            scenario: name, failures: failures, holdsRight: holdsRight, holds: holds,
            spuriousTabletModeChanges: spurious, hingeErrors: hingeErrors, holdHingeErrors: holdHingeErrors,
            tabletModeReactions: tabletReactions,
            tabletPostureReactions: postureReactions)
    }
}
