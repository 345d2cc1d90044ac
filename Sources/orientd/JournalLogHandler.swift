import Logging
import OrientPosix

#if canImport(Glibc)
import Glibc
#endif

/// Writes log lines to standard error: with the journal's priority prefix (`<6>message key=value`, no timestamp:
/// the journal adds one) when standard error is the journal's stream, and plain otherwise (`message`, or
/// `warning: message`), for a person at a terminal or a file.
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
        var text = Self.toJournal ? "<\(Self.priority(event.level))>" : Self.plainPrefix(event.level)
        text += "\(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { text += " \(key)=\(value)" }
        printError(text)
    }

    /// Whether standard error is the journal's: systemd sets JOURNAL_STREAM to that stream's device and inode
    /// (systemd.exec(5)), which a redirection in between changes, so a child writing elsewhere is not fooled.
    static let toJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        var info = stat()
        guard fstat(StandardError.logDescriptor, &info) == 0 else { return false }
        return value == "\(info.st_dev):\(info.st_ino)"
    }()

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

    /// What a person is told first of a line that is not news.
    private static func plainPrefix(_ level: Logger.Level) -> String {
        switch level {
        case .critical, .error: "error: "
        case .warning: "warning: "
        case .notice, .info, .debug, .trace: ""
        }
    }
}
