import ArgumentParser
import OrientCore
import OrientSensors
import OrientConfiguration
import OrientServer

/// `orientd run`'s options: the settings, each overriding the configuration file's key of the same name, and
/// those of the replay and the log, which only the command line has.
struct RunOptions: ParsableArguments {
    @Option(help: "The configuration file (default \(DaemonConfiguration.defaultPath); a missing default file is fine).")
    var config: String?

    /// Every setting's option (`--mask`, `--still-rate`, `--dbus` ...), read with the settings table
    /// (``DaemonSetting/all``) rather than declared here one by one; `orientd run --help` lists them.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var settings: [String] = []

    @Option(help: "Replay this trace instead of reading a live sensor.")
    var replay: String?

    @Option(help: "Replay speed: a factor (1 is real time) or max.")
    var speed: String = "1"

    @Flag(help: "Start the replay over when it ends.")
    var loop = false

    @Flag(help: "Stop the daemon when the replay ends (by default it keeps serving the last state).")
    var exitAtEnd = false

    @Option(help: "Hold the replay back until this many clients are subscribed, so that all of them see it whole.")
    var replayWaitFor: Int?

    @Option(help: "Log level: debug, info, notice, warning or error.")
    var logLevel: String = "info"

    func validate() throws {
        var scratch = DaemonConfiguration()
        do {
            try apply(to: &scratch)
        } catch {
            throw ValidationError(error.description)
        }
        guard ReplaySource.Speed(speed) != nil else { throw ValidationError("--speed: expected a positive number or max") }
        if replay == nil, loop || exitAtEnd || replayWaitFor != nil {
            throw ValidationError("--loop, --exit-at-end and --replay-wait-for need --replay")
        }
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw ValidationError("--log-level: expected debug, info, notice, warning or error")
        }
    }

    /// Overrides `configuration` with every setting given on the command line, then checks the whole.
    func apply(to configuration: inout DaemonConfiguration) throws(ConfigurationError) {
        try SettingArguments.apply(settings, to: &configuration)
        try configuration.validate()
    }
}
