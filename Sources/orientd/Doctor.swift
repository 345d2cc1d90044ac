import ArgumentParser
import Logging
import OrientCore
import OrientTools
import OrientctlCommands
import OrientSensors

extension Orientd {
    /// `orientd doctor`: what orientd finds, what it would use and why, and what it reads, for a person.
    struct Doctor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the IIO devices, the accelerometer orientd would use, its readings, and what looks wrong.",
            discussion: """
                Reads the sensor for a few seconds through the same code as the daemon (stop the orientd service \
                first if the sensor cannot be shared). On a convertible it also shows the base (keyboard) sensor, \
                and the hinge angle and posture both sensors give. For the same seconds it reads the light and \
                proximity sensors and the compass, and warns when a light sensor reads one value, or 0, throughout. Last, \
                it asks the running daemon what its own sensors ran into since it started (a stalled buffer opened \
                again or polled, a sensor lost, a resume). Exit status: 0 \
                when a sensor was read, 69 when none could be.
                """
        )

        @Option(help: "The accelerometer to examine: a driver name, an id such as iio:device0, or a sysfs path.")
        var device: String?

        @Option(help: "A mount matrix to try instead of the one the system gives ('x1, y1, z1; x2, ...').")
        var mountMatrix: String?

        @Option(help: "How long to read the sensor, in seconds.")
        var seconds: Double = 3

        @Option(
            help: ArgumentHelp(
                "The panel as installed, which decides what portrait and landscape mean: auto finds the internal panel.",
                valueName: "auto|portrait|landscape"))
        var naturalOrientation: NaturalOrientationSetting = .auto

        @Flag(help: "Print a JSON document instead.")
        var json = false

        @Option(help: "The running daemon's socket, asked what its sensors ran into since it started (default: $ORIENTD_SOCKET, else /run/orientd/orientd.sock).")
        var socket: String?

        func validate() throws {
            guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds must be in 0 < s <= 60") }
            if let mountMatrix {
                do { _ = try MountMatrix(parsing: mountMatrix) } catch { throw ValidationError("--mount-matrix: \(error)") }
            }
        }

        /// What the daemon at `path` says its sensors ran into, from its `status`; why not, when it does not answer.
        static func runningDaemon(at path: String) async -> DoctorReport.RunningDaemon {
            switch await RunningDaemonStatus.fetch(path: path) {
            case .failure(let error):
                return DoctorReport.RunningDaemon(socket: path, unreachable: error.message)
            case .success(let status):
                return DoctorReport.RunningDaemon(socket: path, uptime: status.uptime, incidents: status.incidents ?? [])
            }
        }

        func run() async throws {
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: .critical) }
            let override = try mountMatrix.map { try MountMatrix(parsing: $0) }
            // The command's one view of udev: the panel, every sensor and switch are looked at through it.
            let udev = UdevHub()
            var report = await DoctorReport.examine(
                device: device, mountMatrixOverride: override, seconds: seconds,
                panel: PanelDiscovery.resolve(naturalOrientation, udev: udev), udev: udev)
            report.daemon = await Self.runningDaemon(at: socket ?? RunningDaemonStatus.defaultSocket)
            if json {
                print(String(decoding: try ToolJSON.encoder().encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
            if report.readings.isEmpty { throw ExitCode(69) }
        }
    }
}
