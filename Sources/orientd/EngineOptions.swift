import ArgumentParser
import OrientCore

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

    func validate() throws {
        _ = try systemMask()
        _ = try preferredOrientation()
        _ = try classifierSettings()
        _ = try mountMatrixOverride()
        _ = try baseMountMatrixOverride()
        _ = try rotateIn()
    }

    func systemMask() throws -> InterfaceOrientationMask {
        do {
            return try InterfaceOrientationMask(parsing: mask)
        } catch {
            throw ValidationError("--mask: \(error)")
        }
    }

    func preferredOrientation() throws -> InterfaceOrientation? {
        guard let preferred else { return nil }
        guard let orientation = InterfaceOrientation(rawValue: preferred), orientation != .unknown else {
            let names = InterfaceOrientation.drawable.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--preferred: unknown orientation \"\(preferred)\"; expected one of: \(names)")
        }
        return orientation
    }

    func classifierSettings() throws -> ClassifierSettings {
        var settings = ClassifierSettings()
        do {
            for assignment in classifierAssignments { try settings.apply(assignment: assignment) }
            try settings.validate()
        } catch {
            throw ValidationError("--classifier: \(error)")
        }
        return settings
    }

    /// The matrix given with `--mount-matrix`, which wins over every other source.
    func mountMatrixOverride() throws -> MountMatrix? {
        guard let mountMatrixText else { return nil }
        do {
            return try MountMatrix(parsing: mountMatrixText)
        } catch {
            throw ValidationError("--mount-matrix: \(error)")
        }
    }

    /// The matrix given with `--base-mount-matrix`, which wins over the trace's `base-mount-matrix`.
    func baseMountMatrixOverride() throws -> MountMatrix? {
        guard let baseMountMatrixText else { return nil }
        do {
            return try MountMatrix(parsing: baseMountMatrixText)
        } catch {
            throw ValidationError("--base-mount-matrix: \(error)")
        }
    }

    /// `--rotate-in`, or `nil` for the engine's default (tablet mode when there is a base sensor).
    func rotateIn() throws -> RotateIn? {
        guard let rotateInText else { return nil }
        guard let value = RotateIn(rawValue: rotateInText) else {
            let names = RotateIn.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--rotate-in: unknown value \"\(rotateInText)\"; expected one of: \(names)")
        }
        return value
    }

    func tracker() throws -> InterfaceOrientationTracker {
        try InterfaceOrientationTracker(systemMask: systemMask(), preferred: preferredOrientation(), systemLocked: lock)
    }
}

/// The classifier settings listed for `--help`, with their defaults and units.
enum ClassifierSettingsHelp {
    static var text: String {
        let defaults = ClassifierSettings()
        return ClassifierSettings.Key.allCases.map { key in
            "  \(key.rawValue)=\(defaults[key]) \(key.unit): \(key.summary)"
        }.joined(separator: "\n")
    }
}
