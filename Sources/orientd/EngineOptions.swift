import ArgumentParser
import OrientCore
import OrientConfiguration
import OrientServer

/// The options that shape the engine, shared by every command that runs it.
struct EngineOptions: ParsableArguments {
    @Option(help: "The system mask: a name or a union such as portrait|landscape.")
    var mask: String = "all"

    @Option(help: "The preferred interface orientation, used when the device orientation decides nothing.")
    var preferred: String?

    @Flag(help: "Start with rotation locked.")
    var lock = false

    @Option(
        name: .customLong("classifier"),
        help: ArgumentHelp("Set a classifier setting (see the list below).", valueName: "name=value")
    )
    var classifierAssignments: [String] = []

    @Option(
        name: .customLong("mount-matrix"),
        help: "Use this mount matrix instead of the one the trace or sensor gives ('x1, y1, z1; x2, ...')."
    )
    var mountMatrixText: String?

    @Option(
        name: .customLong("base-mount-matrix"),
        help: "Use this mount matrix for the keyboard base's sensor instead of the trace's (two-sensor traces)."
    )
    var baseMountMatrixText: String?

    @Flag(help: "Use the mount matrices as given, without replacing their z rows by x × y.")
    var noMountRepair = false

    @Option(
        name: .customLong("rotate-in"),
        help: ArgumentHelp(
            "Where the screen turns with the device, for two-sensor traces: always, or only in tablet mode (the "
                + "default; out of it the interface is held upright for the keyboard).",
            valueName: "always|tablet-mode")
    )
    var rotateInText: String?

    @Option(help: ArgumentHelp("Tablet mode comes on once the hinge opens this far (180 is flat).", valueName: "degrees"))
    var tabletModeOnAngle: String?

    @Option(help: ArgumentHelp("Tablet mode goes off once the hinge closes this far.", valueName: "degrees"))
    var tabletModeOffAngle: String?

    @Option(
        help: ArgumentHelp(
            "The recorded device's panel as installed, which decides what portrait and landscape mean; auto takes the "
                + "trace's natural-orientation line, else portrait.",
            valueName: "auto|portrait|landscape"),
        completion: .list(NaturalOrientationSetting.allCases.map(\.rawValue)))
    var naturalOrientation: String?

    func validate() throws {
        _ = try tracker()
        _ = try engineConfiguration()
    }

    /// The engine's settings, read with the daemon's own settings table: the same parsers and error texts as
    /// `orientd run` and the configuration file.
    /// - Parameter traceNatural: the trace's natural orientation, used unless `--natural-orientation` names one.
    func engineConfiguration(traceNatural: NaturalOrientation? = nil) throws -> EngineConfiguration {
        var words = classifierAssignments.flatMap { ["--classifier", $0] }
        if let mountMatrixText { words += ["--mount-matrix", mountMatrixText] }
        if noMountRepair { words.append("--no-mount-repair") }
        if let rotateInText { words += ["--rotate-in", rotateInText] }
        if let tabletModeOnAngle { words += ["--tablet-mode-on-angle", tabletModeOnAngle] }
        if let tabletModeOffAngle { words += ["--tablet-mode-off-angle", tabletModeOffAngle] }
        if let naturalOrientation { words += ["--natural-orientation", naturalOrientation] }
        var configuration = DaemonConfiguration()
        do {
            try SettingArguments.apply(words, to: &configuration)
            try configuration.validate()
            configuration.engine.baseMountMatrix = try baseMountMatrixText.map { text throws(ConfigurationError) in
                do { return try MountMatrix(parsing: text) } catch {
                    throw ConfigurationError(key: "--base-mount-matrix", message: "\(error)")
                }
            }
        } catch {
            throw ValidationError(error.description)
        }
        var engine = configuration.engine
        // Offline, nothing is detected: without the option or the trace's line, portrait.
        engine.natural = PanelDetection.choose(configuration.naturalOrientation, trace: traceNatural) {
            .portraitUntilTold
        }.natural
        return engine
    }

    func tracker() throws -> InterfaceOrientationTracker {
        let mask: InterfaceOrientationMask
        let preferred: InterfaceOrientation?
        do {
            mask = try InterfaceOrientationMask(parsing: self.mask)
            preferred = try self.preferred.map { text throws(OrientationNameError) in
                try InterfaceOrientation(parsingDrawable: text)
            }
        } catch let error as MaskParseError {
            throw ValidationError("--mask: \(error)")
        } catch {
            throw ValidationError("--preferred: \(error)")
        }
        do {
            return try InterfaceOrientationTracker(systemMask: mask, preferred: preferred, systemLocked: lock)
        } catch {
            throw ValidationError("--mask: \(error)")
        }
    }
}
