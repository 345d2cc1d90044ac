import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Writes log lines to standard error the way systemd's journal reads them: `<priority>message key=value`,
/// with no timestamp of its own (the journal adds one). Run by hand, the prefix is a harmless `<6>`.
struct JournalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level
    private let label: String

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var text = "<\(Self.priority(event.level))>\(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { text += " \(key)=\(value)" }
        printError(text)
    }

    /// syslog priorities: 3 error, 4 warning, 5 notice, 6 info, 7 debug.
    private static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }
}
