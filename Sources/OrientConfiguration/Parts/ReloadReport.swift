/// What a reload did, setting by setting, built from the answers of the parts that read each setting.
public struct ReloadReport: Sendable, Equatable {
    /// Changed since the last reload, and put in force by every part that reads it.
    public let applied: [String]
    /// Different from the value the daemon started with, and read only at start by a part: waits for the next start.
    public let waiting: [String]
    /// Changed, but kept at its old value by a part (its reason is in ``refusals``).
    public let refused: [String]
    public let refusals: [Refusal]
    /// Changed, and read by no part: a setting the wiring forgot. A test keeps this empty.
    public let unread: [String]

    /// - Parameters:
    ///   - started: the configuration the daemon started with (what start-only settings still are).
    ///   - running: the configuration handed to the parts until now.
    ///   - next: the configuration just handed to them.
    ///   - answers: what each part answered.
    public init(started: DaemonConfiguration, running: DaemonConfiguration, next: DaemonConfiguration, answers: [PartAnswer]) {
        let whileRunning = Set(answers.flatMap(\.reads.whileRunning))
        let atStart = Set(answers.flatMap(\.reads.atStart))
        let refusals = answers.compactMap(\.refusal)
        let refused = Set(refusals.flatMap(\.settings))
        let changed = DaemonSetting.all.filter { $0.differs(running, next) }.map(\.name)
        self.refusals = refusals
        self.refused = changed.filter { refused.contains($0) }
        applied = changed.filter { whileRunning.contains($0) && !atStart.contains($0) && !refused.contains($0) }
        waiting = DaemonSetting.all.filter { atStart.contains($0.name) && $0.differs(started, next) }.map(\.name)
        unread = changed.filter { !whileRunning.contains($0) && !atStart.contains($0) }
    }

    /// The log line: what was applied, what a part kept, and each changed setting that waits for the next start.
    public var summary: String {
        var parts = ["configuration reloaded"]
        parts.append(applied.isEmpty ? "nothing changed that a reload applies" : "applied " + applied.joined(separator: ", "))
        if !refused.isEmpty { parts.append("kept " + refused.joined(separator: ", ")) }
        if !waiting.isEmpty {
            parts.append("changed but read only at start, so waiting for the next start: " + waiting.joined(separator: ", "))
        }
        if !unread.isEmpty { parts.append("changed but read by no part: " + unread.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
