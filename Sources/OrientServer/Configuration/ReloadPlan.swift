/// What a reload (SIGHUP) does with a new configuration, setting by setting, as ``DaemonSetting/reload`` says.
public struct ReloadPlan: Sendable {
    /// Changed since the last reload, and applied now.
    public let applied: [DaemonSetting]
    /// Different from the configuration the daemon started with, and read only at start: they wait for the next one.
    public let waiting: [DaemonSetting]

    /// - Parameters:
    ///   - started: the configuration the daemon started with (what the start-only settings still are).
    ///   - running: the configuration last applied.
    ///   - next: the one just read.
    public init(started: DaemonConfiguration, running: DaemonConfiguration, next: DaemonConfiguration) {
        applied = DaemonSetting.all.filter { $0.reload == .applied && $0.differs(running, next) }
        waiting = DaemonSetting.all.filter { $0.reload == .nextStart && $0.differs(started, next) }
    }

    /// The configuration to run with: `next`'s applied settings, and the start-only ones as they started.
    public static func effective(started: DaemonConfiguration, next: DaemonConfiguration) -> DaemonConfiguration {
        var result = next
        for setting in DaemonSetting.all where setting.reload == .nextStart {
            setting.copy(from: started, to: &result)
        }
        return result
    }

    /// The log line: what was applied, and each changed setting that waits for the next start.
    public var summary: String {
        var parts = ["configuration reloaded"]
        parts.append(applied.isEmpty ? "nothing changed that a reload applies" : "applied " + applied.map(\.name).joined(separator: ", "))
        if !waiting.isEmpty {
            parts.append("changed but read only at start, so waiting for the next start: " + waiting.map(\.name).joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }
}
