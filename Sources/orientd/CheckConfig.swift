import ArgumentParser
import OrientCore
import OrientInput
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
            let text: String
            switch readTextFile(file) {
            case .success(let contents): text = contents
            case .failure(let error):
                printError("orientd: \(file): cannot read: \(error)")
                throw ExitStatus.noInput
            }
            let c: DaemonConfiguration
            do {
                c = try ConfigurationFile.parse(text, file: file)
            } catch {
                printError("orientd: \(error)")
                throw ExitStatus.configError
            }
            print("\(file): valid. Resulting settings (defaults where the file is silent):")
            print("  socket: \(c.socketPath) (mode \(String(c.socketMode, radix: 8)))")
            print("  mask: \(c.systemMask)")
            print("  preferred: \(c.preferred?.rawValue ?? "none")")
            print("  device: \(c.device ?? "automatic (the display accelerometer)")")
            if let matrix = c.mountMatrix {
                let repair = matrix.repairingHandedness()
                var note = ""
                if c.mountRepair, repair.isApplied { note = " (mirrored: z row replaced, used as \(repair.repaired))" }
                print("  mount-matrix: \(matrix)\(note)")
            } else {
                print("  mount-matrix: from udev or sysfs")
            }
            print("  mount-repair: \(c.mountRepair)")
            print("  rate: \(c.rate) Hz")
            print("  still-rate: \(c.stillRate.map { "\($0) Hz (once still for a second)" } ?? "off")")
            print("  sampling: \(c.sampling.rawValue)")
            print("  dbus: \(c.dbus ? "yes (net.hadess.SensorProxy on the system bus)" : "no")")
            print("  control-group: \(c.controlGroup ?? "none (root only)")")
            print("  max-clients: \(c.maxClients)")
            print("  request-timeout: \(c.requestTimeout) s")
            print("  state-directory: \(c.stateDirectory)")
            print("  rotate-in: \(c.rotateIn?.rawValue ?? "tablet-mode with a base (keyboard) sensor, always without one")")
            print("  tablet-mode-on-angle: \(c.posture.tabletModeOnAngle)°")
            print("  tablet-mode-off-angle: \(c.posture.tabletModeOffAngle)°")
            print("  tablet-mode-switch: \(c.tabletModeSwitch ? "yes (SW_TABLET_MODE through \(TabletModeSwitch.devicePath))" : "no")")
            print("  classifier:")
            for key in ClassifierSettings.Key.allCases {
                print("    \(key.rawValue): \(c.classifier[key]) \(key.unit)")
            }
        }
    }
}
