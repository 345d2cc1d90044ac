import OrientCore
import OrientServer
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
    }

    @Test("A reload applies what it can and names what waits for the next start, setting by setting")
    func reloadPlan() throws {
        let started = DaemonConfiguration()
        for setting in DaemonSetting.all {
            let next = try changed(setting)
            let plan = ReloadPlan(started: started, running: started, next: next)
            switch setting.reload {
            case .applied:
                #expect(plan.applied.map(\.name) == [setting.name])
                #expect(plan.waiting.isEmpty)
            case .nextStart:
                #expect(plan.waiting.map(\.name) == [setting.name])
                #expect(plan.applied.isEmpty)
                #expect(plan.summary.contains("waiting for the next start: \(setting.name)"))
            }
        }
        // These three were read only at start and silently ignored by a reload; now they are named.
        let waiting = Set(DaemonSetting.all.filter { $0.reload == .nextStart }.map(\.name))
        #expect(waiting.isSuperset(of: ["dbus", "still-rate", "socket-mode"]))
    }

    @Test("The running configuration keeps the start-only settings as started; a second reload names them again")
    func effective() throws {
        let started = DaemonConfiguration()
        var next = started
        next.stillRate = nil
        next.systemMask = .landscape
        let effective = ReloadPlan.effective(started: started, next: next)
        #expect(effective.stillRate == 5)
        #expect(effective.systemMask == .landscape)
        let again = ReloadPlan(started: started, running: effective, next: next)
        #expect(again.applied.isEmpty)
        #expect(again.waiting.map(\.name) == ["still-rate"])
    }

    @Test("The command line takes every form, with the file's error texts")
    func commandLine() throws {
        var c = DaemonConfiguration()
        try SettingArguments.apply(
            ["--still-rate=off", "--dbus", "--mask", "landscape", "--classifier", "settle-time=0.1", "--no-mount-repair",
             "--state-dir", "/tmp/s"],
            to: &c)
        #expect(c.stillRate == nil)
        #expect(c.dbus)
        #expect(c.systemMask == .landscape)
        #expect(c.engine.classifier.settleTime == 0.1)
        #expect(!c.engine.mountRepair)
        #expect(c.stateDirectory == "/tmp/s")
        try SettingArguments.apply(["--no-dbus"], to: &c)
        #expect(!c.dbus)

        let refusals: [([String], String)] = [
            (["--preferred", "sideways"], "--preferred: unknown orientation \"sideways\"; expected one of: portrait, "),
            (["--bogus"], "unknown option --bogus"),
            (["--rate"], "--rate: expected a value"),
            (["stray"], "unexpected argument \"stray\""),
            (["--classifier", "settle=1"], "--classifier: unknown setting \"settle\""),
            (["--classifier", "settle-time"], "--classifier: expected NAME=VALUE"),
            (["--no-rate"], "unknown option --no-rate"),
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

    @Test("The help lists every top-level setting's option and every classifier setting")
    func help() {
        let help = SettingArguments.help
        for setting in DaemonSetting.all {
            switch setting.form {
            case .value(let valueName): #expect(help.contains("--\(setting.option) <\(valueName)>"))
            case .flag: #expect(help.contains("--\(setting.option), --no-\(setting.option)"))
            case .classifier: #expect(help.contains("\(setting.key)="))
            }
        }
    }
}
