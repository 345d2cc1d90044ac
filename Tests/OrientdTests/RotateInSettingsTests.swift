import Testing

/// rotate-in and the tablet-mode angles as `orientd run` takes them; check-config's are tested in process
/// (Tests/OrientdCommandsTests).
@Suite("rotate-in and tablet-mode settings")
struct RotateInSettingsTests {
    @Test("orientd run: a bad --rotate-in or tablet-mode angle is a usage error naming it")
    func runOptions() throws {
        let rotate = try OrientdProcess.run(["run", "--config", "/dev/null", "--rotate-in", "sideways"])
        #expect(rotate.status == 64)
        #expect(rotate.stderr.contains("--rotate-in: expected always or tablet-mode, got \"sideways\""), "\(rotate.stderr)")
        let angles = try OrientdProcess.run(["run", "--config", "/dev/null", "--tablet-mode-on-angle", "150"])
        #expect(angles.status == 64)
        #expect(angles.stderr.contains("tablet-mode-off-angle: must be below tablet-mode-on-angle (150.0)"), "\(angles.stderr)")
        let help = try OrientdProcess.run(["run", "--help"])
        #expect(help.stdout.contains("--rotate-in <always|tablet-mode>"))
        #expect(help.stdout.contains("--tablet-mode-on-angle <degrees>"))
    }
}
