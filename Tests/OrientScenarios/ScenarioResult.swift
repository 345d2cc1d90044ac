import OrientCore

/// What the engine made of a scenario, judged against its expectations.
public struct ScenarioResult: Sendable {
    public struct Commit: Sendable, Equatable {
        public let time: Double
        public let orientation: DeviceOrientation

        public init(time: Double, orientation: DeviceOrientation) {
            self.time = time
            self.orientation = orientation
        }
    }

    public let scenario: String
    public let commits: [Commit]
    /// Each rotation's delay from the hand coming to rest to the commit (0 when it committed before rest).
    public let latencies: [Double]
    /// Every broken expectation, as a sentence; empty when the scenario passed.
    public let failures: [String]
}

extension Scenario {
    /// Runs the engine over the samples, as `orientd classify` would over a trace of them.
    public func run(settings: ClassifierSettings = ClassifierSettings(), repairHandedness: Bool = true) -> ScenarioResult {
        var engine = try! OrientationEngine(
            mountMatrix: mountMatrix, repairHandedness: repairHandedness, settings: settings,
            tracker: try! InterfaceOrientationTracker()
        )
        var commits: [ScenarioResult.Commit] = []
        for sample in samples {
            if let change = try! engine.feed(sample) {
                commits.append(.init(time: change.time, orientation: change.device))
            }
        }
        return judge(commits)
    }

    func judge(_ commits: [ScenarioResult.Commit]) -> ScenarioResult {
        var failures: [String] = []
        var latencies: [Double] = []
        func state(at t: Double) -> DeviceOrientation { commits.last(where: { $0.time <= t })?.orientation ?? .unknown }
        func format(_ t: Double) -> String { String(Double(Int(t * 1000)) / 1000) }

        for commit in commits {
            guard let e = expectations.last(where: { $0.start <= commit.time }) else { continue }
            let allowed: Bool =
                switch e.kind {
                case .hold(let o): commit.orientation == o
                case .rotation(let target, let transit): commit.orientation == target || transit.contains(commit.orientation)
                case .hover(let set): set.contains(commit.orientation)
                case .quiet: false
                }
            if !allowed {
                failures.append("\(name): spurious \(commit.orientation) at t=\(format(commit.time)) during \(e.kind)")
            }
        }
        for (index, e) in expectations.enumerated() {
            switch e.kind {
            case .hold(let o):
                let got = state(at: e.end)
                if got != o { failures.append("\(name): expected \(o) at t=\(format(e.end)), have \(got)") }
            case .rotation(let target, _):
                let before = state(at: e.start)
                guard before != target else { continue }
                let deadline = expectations[(index + 1)...].first(where: {
                    if case .rotation = $0.kind { return true } else { return false }
                })?.start ?? .infinity
                if let commit = commits.first(where: { $0.time >= e.start && $0.time < deadline && $0.orientation == target }) {
                    latencies.append(max(0, commit.time - e.end))
                } else {
                    failures.append("\(name): rotation to \(target) ending at t=\(format(e.end)) never committed")
                }
            case .hover:
                let count = commits.filter { $0.time >= e.start && $0.time < e.end }.count
                if count > 1 { failures.append("\(name): \(count) changes while hovering from t=\(format(e.start))") }
            case .quiet:
                break
            }
        }
        return ScenarioResult(scenario: name, commits: commits, latencies: latencies, failures: failures)
    }
}
