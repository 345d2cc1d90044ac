import ArgumentParser
import OrientCore
import OrientPosix
import OrientConfiguration
import OrientServer

extension Orientd {
    /// `orientd check-config FILE`: validates a configuration file and shows what it amounts to.
    struct CheckConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Check a configuration file and print the settings it results in.",
            discussion: "Exit status: 0 when the file is valid, 66 when it cannot be read, 78 when it is invalid."
        )

        @Argument(help: "The configuration file.")
        var file: String = DaemonConfiguration.defaultPath

        func run() throws {
            try CommandFailure.reporting { try check(printingTo: &$0) }
        }

        /// The command's work: the file checked, and the settings it results in written to `output`.
        /// - Throws: 66 when the file cannot be read, 78 when it is invalid (the message names the file, line and
        ///   key).
        func check(printingTo output: inout some TextOutputStream) throws(CommandFailure) {
            let text: String
            switch readTextFile(file) {
            case .success(let contents): text = contents
            case .failure(let error):
                throw CommandFailure(message: "orientd: \(file): cannot read: \(error)", status: ExitStatus.noInput)
            }
            let c: DaemonConfiguration
            do {
                c = try ConfigurationFile.parse(text, file: file)
                try HostChecks.check(c, file: (file, text))
            } catch {
                throw CommandFailure(message: "orientd: \(error)", status: ExitStatus.configError)
            }
            print("\(file): valid. Resulting settings (defaults where the file is silent):", to: &output)
            for setting in DaemonSetting.all where setting.section == nil {
                print("  \(setting.key): \(setting.show(c))\(note(on: setting, in: c))", to: &output)
            }
            print("  [\(DaemonSetting.classifierSection)]", to: &output)
            for setting in DaemonSetting.all where setting.section != nil {
                print("    \(setting.key): \(setting.show(c))", to: &output)
            }
        }

        /// What a value means beyond itself: the matrix actually used when a repair changes it.
        private func note(on setting: DaemonSetting, in c: DaemonConfiguration) -> String {
            guard setting.key == "mount-matrix", let matrix = c.engine.mountMatrix, c.engine.mountRepair else { return "" }
            let repair = matrix.repairingHandedness()
            return repair.isApplied ? " (mirrored: z row replaced, used as \(repair.repaired))" : ""
        }
    }
}
