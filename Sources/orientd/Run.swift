import ArgumentParser
import Logging
import OrientConfiguration
import OrientPosix
import OrientServer

#if canImport(Glibc)
import Glibc
#endif

extension Orientd {
    /// `orientd run`: the daemon.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the daemon: read the sensor (or replay a trace) and publish orientation on a Unix socket.",
            discussion: """
                Settings come from the configuration file, then the options here, which win. SIGHUP reloads the \
                file and applies every setting it can; those read at start only are named in the log (a bad file \
                is reported and the running configuration kept). SIGTERM and SIGINT stop cleanly.
                """ + "\n\n" + SettingArguments.help(readAtStart: Daemon.readAtStart)
        )

        @OptionGroup var options: RunOptions

        func run() async throws {
            let level = Logger.Level(rawValue: options.logLevel) ?? .info
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level) }
            let logger = Logger(label: "orientd")
            for (old, new) in SettingArguments.renamedOptions(in: options.settings) {
                logger.notice("\(old) is now \(new); the old name is still taken")
            }
            let environment = ProcessEnvironment.current
            let options = self.options
            let load: @Sendable () throws -> DaemonConfiguration = {
                try Self.loadConfiguration(options: options, environment: environment)
            }
            let configuration: DaemonConfiguration
            do {
                configuration = try load()
            } catch {
                logger.error("\(error)")
                throw ExitStatus.configError
            }
            do {
                try await Daemon.run(
                    configuration: configuration, options: options, environment: environment, reload: load,
                    logger: logger)
            } catch let error as ExitCode {
                throw error
            } catch {
                logger.error("\(error)")
                throw ExitStatus.software
            }
        }

        /// Defaults, then the file, then the command line.
        static func loadConfiguration(options: RunOptions, environment: [String: String]) throws -> DaemonConfiguration {
            var base = DaemonConfiguration()
            if let stateDirectory = environment["STATE_DIRECTORY"], !stateDirectory.isEmpty {
                base.stateDirectory = String(stateDirectory.split(separator: ":").first ?? "")
            }
            let path = options.config ?? DaemonConfiguration.defaultPath
            var configuration = base
            var file: (path: String, text: String)?
            switch readTextFile(path) {
            case .success(let text):
                configuration = try ConfigurationFile.parse(text, file: path, base: base)
                file = (path, text)
            case .failure(let error):
                // Only the default path may be missing; a file named on the command line must exist.
                if options.config != nil || error != .noSuchFileOrDirectory {
                    throw ConfigurationError(file: path, message: "cannot read: \(error)")
                }
            }
            try options.apply(to: &configuration)
            try HostChecks.check(configuration, file: file, commandLine: options.settings)
            return configuration
        }
    }
}
