import ArgumentParser
import OrientCore
import OrientSensors
import OrientServer

/// `orientd run`'s options. Each one, when given, overrides the configuration file's setting of the same name.
struct RunOptions: ParsableArguments {
    @Option(help: "The configuration file (default \(DaemonConfiguration.defaultPath); a missing default file is fine).")
    var config: String?

    @Option(help: "The Unix socket to listen on (ignored under socket activation).")
    var socket: String?

    @Option(help: "The system mask: a name or a union such as portrait|landscape.")
    var mask: String?

    @Option(help: "The system's preferred interface orientation.")
    var preferred: String?

    @Option(help: "The accelerometer: a driver name, an id such as iio:device0, or a sysfs path.")
    var device: String?

    @Option(help: "A mount matrix that wins over every other source ('x1, y1, z1; x2, ...').")
    var mountMatrix: String?

    @Flag(help: "Use the mount matrix as found, without replacing its z row by x × y.")
    var noMountRepair = false

    @Option(help: "Samples per second to ask of the sensor.")
    var rate: Double?

    @Option(help: ArgumentHelp("Polled samples per second once the device is still, or off.", valueName: "hz|off"))
    var stillRate: String?

    @Option(name: .customLong("classifier"), help: ArgumentHelp("A classifier setting.", valueName: "name=value"))
    var classifierAssignments: [String] = []

    @Option(
        help: ArgumentHelp(
            "On a convertible, when the screen turns with the device: always, or in tablet-mode only (as a laptop it "
                + "stays upright for the keyboard). Default: tablet-mode with a base sensor, else always.",
            valueName: "always|tablet-mode"),
        completion: .list(RotateIn.allCases.map(\.rawValue)))
    var rotateIn: String?

    @Option(help: ArgumentHelp("Tablet mode comes on once the hinge opens this far (180 is flat).", valueName: "degrees"))
    var tabletModeOnAngle: Double?

    @Option(help: ArgumentHelp("Tablet mode goes off once the hinge closes this far.", valueName: "degrees"))
    var tabletModeOffAngle: Double?

    @Flag(
        inversion: .prefixedNo,
        help: "On a convertible, report tablet mode as a SW_TABLET_MODE switch (a uinput device) for libinput and the desktops.")
    var tabletModeSwitch: Bool?

    @Option(help: "Who may lock, unlock and set the mask besides root: a group name or number.")
    var controlGroup: String?

    @Option(help: "When the sensor is open: on-demand (while a client is subscribed) or always.")
    var sampling: String?

    @Flag(inversion: .prefixedNo, help: "Serve net.hadess.SensorProxy (iio-sensor-proxy's interface) on the system bus.")
    var dbus: Bool?

    @Option(help: "Refuse connections beyond this many clients.")
    var maxClients: Int?

    @Option(help: "Close a connection whose request line stays unfinished this many seconds.")
    var requestTimeout: Double?

    @Option(help: "Where the rotation lock and a run-time mask are kept.")
    var stateDir: String?

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

    /// Overrides `configuration` with every option that was given.
    func apply(to c: inout DaemonConfiguration) throws(ConfigurationError) {
        if let socket { c.socketPath = socket }
        if let mask {
            do { c.systemMask = try InterfaceOrientationMask(parsing: mask) } catch {
                throw ConfigurationError(key: "--mask", message: error.description)
            }
        }
        if let preferred {
            guard let orientation = InterfaceOrientation(rawValue: preferred), orientation != .unknown else {
                throw ConfigurationError(key: "--preferred", message: "unknown orientation \"\(preferred)\"")
            }
            c.preferred = orientation
        }
        if let device { c.device = device }
        if let mountMatrix {
            do { c.mountMatrix = try MountMatrix(parsing: mountMatrix) } catch {
                throw ConfigurationError(key: "--mount-matrix", message: error.description)
            }
        }
        if noMountRepair { c.mountRepair = false }
        if let rate { c.rate = rate }
        if let stillRate {
            if stillRate == "off" {
                c.stillRate = nil
            } else if let value = Double(stillRate), value.isFinite {
                c.stillRate = value
            } else {
                throw ConfigurationError(key: "--still-rate", message: "expected samples per second or off, got \(stillRate)")
            }
        }
        for assignment in classifierAssignments {
            do { try c.classifier.apply(assignment: assignment) } catch {
                throw ConfigurationError(key: "--classifier", message: error.description)
            }
        }
        if let rotateIn {
            guard let value = RotateIn(rawValue: rotateIn) else {
                throw ConfigurationError(key: "--rotate-in", message: "expected always or tablet-mode, got \(rotateIn)")
            }
            c.rotateIn = value
        }
        if let tabletModeOnAngle { c.posture.tabletModeOnAngle = tabletModeOnAngle }
        if let tabletModeOffAngle { c.posture.tabletModeOffAngle = tabletModeOffAngle }
        if let tabletModeSwitch { c.tabletModeSwitch = tabletModeSwitch }
        if let controlGroup { c.controlGroup = controlGroup }
        if let sampling {
            guard let policy = SamplingPolicy(rawValue: sampling) else {
                throw ConfigurationError(key: "--sampling", message: "expected on-demand or always")
            }
            c.sampling = policy
        }
        if let dbus { c.dbus = dbus }
        if let maxClients { c.maxClients = maxClients }
        if let requestTimeout { c.requestTimeout = requestTimeout }
        if let stateDir { c.stateDirectory = stateDir }
        try c.validate()
    }
}
