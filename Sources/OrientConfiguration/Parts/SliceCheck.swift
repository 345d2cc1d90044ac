import OrientCore

/// Finds, setting by setting, what a part's slice depends on: for the tests that check each part's
/// ``ConfiguredPart/reads`` against its ``ConfiguredPart/slice(of:)``.
public enum SliceCheck {
    /// The names of the settings whose value, changed alone from the default to its ``DaemonSetting/example``,
    /// changes the part's slice. The natural orientation is decided as at start with no panel found and no trace.
    public static func settingsRead<Part: ConfiguredPart>(by part: Part.Type) throws -> [String] {
        let base = DaemonConfiguration()
        let baseSlice = Part.slice(of: settings(base))
        return try DaemonSetting.all.filter { setting in
            var changed = base
            try setting.apply(setting.example, to: &changed)
            return Part.slice(of: settings(changed)) != baseSlice
        }.map(\.name)
    }

    private static func settings(_ configuration: DaemonConfiguration) -> RunSettings {
        RunSettings(configuration, detected: .portraitUntilTold, traceNatural: nil)
    }
}
