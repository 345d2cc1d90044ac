import OrientCore
import OrientConfiguration
import Testing

@Suite("The settings table")
struct DaemonSettingTests {
    /// The defaults with one setting set to its example.
    private func changed(_ setting: DaemonSetting) throws -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        try setting.apply(setting.example, to: &configuration)
        return configuration
    }

    @Test("Each setting's example is valid, differs from the default and shows differently in check-config")
    func examples() throws {
        let defaults = DaemonConfiguration()
        for setting in DaemonSetting.all {
            let configuration = try changed(setting)
            #expect(throws: Never.self, "\(setting.name)") { try configuration.validate() }
            #expect(setting.differs(defaults, configuration), "\(setting.name)")
            #expect(setting.show(defaults) != setting.show(configuration), "\(setting.name)")
            // It lands in exactly one place: no other setting sees the change.
            for other in DaemonSetting.all where other.name != setting.name {
                #expect(!other.differs(defaults, configuration), "\(setting.name) changed \(other.name)")
            }
        }
    }

    @Test("Names and options are unique")
    func unique() {
        let names = DaemonSetting.all.map(\.name)
        #expect(Set(names).count == names.count)
        let options = DaemonSetting.all.filter { $0.section == nil }.map(\.option)
        #expect(Set(options).count == options.count)
        // Each lands at a place of its own, so a part that names what it reads by key path names one setting.
        for setting in DaemonSetting.all { #expect(DaemonSetting.name(at: setting.path) == setting.name) }
    }

    /// Two parts: one takes the mask while running, the other reads the socket's mode at start and refuses nothing.
    private let answers = [
        PartAnswer(part: "Running", reads: SettingsRead(whileRunning: [\.systemMask, \.rate])),
        PartAnswer(part: "AtStart", reads: SettingsRead(atStart: [\.socketMode])),
    ]

    @Test("A reload's report names each changed setting as its parts answered: applied, waiting, kept or read by no part")
    func reloadReport() throws {
        let started = DaemonConfiguration()
        var next = started
        next.systemMask = .landscape
        next.socketMode = 0o600
        next.maxClients = 5
        let report = ReloadReport(started: started, running: started, next: next, answers: answers)
        #expect(report.applied == ["mask"])
        #expect(report.waiting == ["socket-mode"])
        #expect(report.unread == ["max-clients"])
        #expect(report.summary == "configuration reloaded; applied mask; changed but read only at start, so waiting for the "
            + "next start: socket-mode; changed but read by no part: max-clients")
        // A second reload with the same file applies nothing again, and still names what waits.
        let again = ReloadReport(started: started, running: next, next: next, answers: answers)
        #expect(again.applied.isEmpty && again.waiting == ["socket-mode"])
        // Removing a setting from the file brings its default back: that is a change too.
        let removed = ReloadReport(started: started, running: next, next: started, answers: answers)
        #expect(removed.applied == ["mask"] && removed.waiting.isEmpty)
    }

    @Test("A setting a part kept at its old value is named as kept, not applied")
    func refusal() {
        let started = DaemonConfiguration()
        var next = started
        next.systemMask = .landscape
        next.rate = 100
        var refusing = answers
        refusing[0].refusal = Refusal(["mask"], reason: "it would strand a subscriber")
        let report = ReloadReport(started: started, running: started, next: next, answers: refusing)
        #expect(report.applied == ["rate"])
        #expect(report.refused == ["mask"])
        #expect(report.summary.contains("kept mask"))
    }

    @Test("The command line takes every form, with the file's error texts")
    func commandLine() throws {
        var c = DaemonConfiguration()
        try SettingArguments.apply(
            ["--still-rate=off", "--dbus", "--mask", "landscape", "--classifier", "settle-time=0.1", "--no-mount-repair",
             "--state-directory", "/tmp/s"],
            to: &c)
        #expect(c.stillRate == nil)
        #expect(c.dbus)
        #expect(c.systemMask == .landscape)
        #expect(c.engine.classifier.settleTime == 0.1)
        #expect(!c.engine.mountRepair)
        #expect(c.stateDirectory == "/tmp/s")
        try SettingArguments.apply(["--no-dbus"], to: &c)
        #expect(!c.dbus)
        // A flag given a value takes the file's words: `--dbus=no` turns it off, as `dbus = no` does.
        try SettingArguments.apply(["--dbus=yes"], to: &c)
        #expect(c.dbus)
        try SettingArguments.apply(["--dbus=no"], to: &c)
        #expect(!c.dbus)
        try SettingArguments.apply(["--dbus=true"], to: &c)
        #expect(c.dbus)

        let refusals: [([String], String)] = [
            (["--preferred", "sideways"], "--preferred: unknown orientation \"sideways\"; expected one of: portrait, "),
            (["--bogus"], "unknown option --bogus"),
            (["--rate"], "--rate: expected a value"),
            (["stray"], "unexpected argument \"stray\""),
            (["--classifier", "settle=1"], "--classifier: unknown setting \"settle\""),
            (["--classifier", "settle-time"], "--classifier: expected NAME=VALUE"),
            (["--no-rate"], "unknown option --no-rate"),
            (["--dbus=maybe"], "--dbus: expected yes or no, got \"maybe\""),
            (["--no-dbus=yes"], "--no-dbus: takes no value"),
        ]
        for (words, message) in refusals {
            var scratch = DaemonConfiguration()
            #expect("\(words)") {
                try SettingArguments.apply(words, to: &scratch)
            } throws: { error in
                "\(error)".hasPrefix(message)
            }
        }
        // One parser per setting: the file says the same about the same value.
        #expect {
            try ConfigurationFile.parse("preferred = sideways\n", file: "f.conf")
        } throws: { error in
            "\(error)".hasPrefix("f.conf:1: preferred: unknown orientation \"sideways\"; expected one of: portrait, ")
        }
    }

    @Test("Every setting has one name: its option is its key; a renamed option is still taken, and never shown")
    func oneNamePerSetting() throws {
        for setting in DaemonSetting.all where setting.form != .classifier {
            #expect(setting.option == setting.key)
        }
        var c = DaemonConfiguration()
        try SettingArguments.apply(["--state-dir", "/tmp/old-name", "--mask=landscape"], to: &c)
        #expect(c.stateDirectory == "/tmp/old-name")
        #expect(SettingArguments.renamedOptions(in: ["--state-dir=/x", "--mask", "all"]).map { "\($0.old) \($0.new)" }
            == ["--state-dir --state-directory"])
        #expect(!SettingArguments.help(readAtStart: []).contains("state-dir "))
    }

    @Test("Every yes/no setting takes the same words, in the file and on the command line")
    func oneYesNoVocabulary() throws {
        let flags = DaemonSetting.all.filter { $0.form == .flag }
        #expect(!flags.isEmpty)
        let words = [("yes", true), ("no", false), ("true", true), ("false", false), ("on", true), ("off", false), ("1", true), ("0", false)]
        for setting in flags {
            for (word, value) in words {
                var fromFile = DaemonConfiguration()
                try setting.apply(word, to: &fromFile)
                var fromLine = DaemonConfiguration()
                try SettingArguments.apply(["--\(setting.option)=\(word)"], to: &fromLine)
                #expect(fromFile == fromLine, "\(setting.name) = \(word)")
                #expect(setting.show(fromFile).hasPrefix(value ? "yes" : "no"), "\(setting.name) = \(word)")
            }
        }
    }

    @Test("The help lists every top-level setting's option and every classifier setting")
    func help() {
        let help = SettingArguments.help(readAtStart: ["socket-mode"])
        // Only the one setting said to be read at start is called so.
        #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").components(separatedBy: "Read at start only.").count == 2)
        for setting in DaemonSetting.all {
            switch setting.form {
            case .value(let valueName): #expect(help.contains("--\(setting.option) <\(valueName)>"))
            case .flag: #expect(help.contains("--\(setting.option), --no-\(setting.option)"))
            case .classifier: #expect(help.contains("\(setting.key)="))
            }
        }
    }
}
