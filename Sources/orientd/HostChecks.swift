import OrientConfiguration
import OrientServer

/// Checks of the settings against this machine, made wherever they are read (start, reload, check-config) rather
/// than in OrientConfiguration, which reads no files: the control group must exist.
enum HostChecks {
    /// - Parameters:
    ///   - file: the configuration file and its text, to name the line that set a value.
    ///   - commandLine: `orientd run`'s setting words, which win over the file.
    static func check(
        _ configuration: DaemonConfiguration, file: (path: String, text: String)?, commandLine: [String] = []
    ) throws(ConfigurationError) {
        guard let problem = ControlAuthorizer(group: configuration.controlGroup).problemWithGroup() else { return }
        let key = "control-group"
        if commandLine.contains(where: { $0 == "--\(key)" || $0.hasPrefix("--\(key)=") }) {
            throw ConfigurationError(key: "--\(key)", message: problem)
        }
        throw ConfigurationError(
            file: file?.path, line: file.flatMap { ConfigurationFile.line(setting: key, in: $0.text) }, key: key,
            message: problem)
    }
}
