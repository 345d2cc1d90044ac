import Foundation
import Testing

/// rotate-in and the tablet-mode angles as the orientd command takes them: check-config and run's options.
@Suite("rotate-in and tablet-mode settings")
struct RotateInSettingsTests {
    private func configFile(_ text: String) throws -> String {
        let path = "/tmp/orientd-rotate-in-\(UUID().uuidString.prefix(8)).conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("check-config shows rotate-in and the tablet-mode angles, set or by default")
    func checkConfig() throws {
        let set = try configFile("rotate-in = always\ntablet-mode-on-angle = 210\ntablet-mode-off-angle = 150\n")
        defer { try? FileManager.default.removeItem(atPath: set) }
        let shown = try OrientdProcess.run(["check-config", set])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("  rotate-in: always\n"))
        #expect(shown.stdout.contains("  tablet-mode-on-angle: 210.0°\n"))
        #expect(shown.stdout.contains("  tablet-mode-off-angle: 150.0°\n"))

        let empty = try configFile("")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let defaults = try OrientdProcess.run(["check-config", empty])
        #expect(defaults.stdout.contains("  rotate-in: tablet-mode with a base (keyboard) sensor, always without one\n"))
        #expect(defaults.stdout.contains("  tablet-mode-on-angle: 200.0°\n"))
        #expect(defaults.stdout.contains("  tablet-mode-off-angle: 160.0°\n"))
    }

    @Test("check-config names the file, line and key of a bad setting, exit 78")
    func checkConfigErrors() throws {
        let bad = try configFile("mask = all\ntablet-mode-on-angle = 180\ntablet-mode-off-angle = 190\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let refused = try OrientdProcess.run(["check-config", bad])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("\(bad):3: tablet-mode-off-angle: must be below tablet-mode-on-angle (180.0)"))
        let typo = try configFile("\nrotate-in = tablet\n")
        defer { try? FileManager.default.removeItem(atPath: typo) }
        let unknown = try OrientdProcess.run(["check-config", typo])
        #expect(unknown.status == 78)
        #expect(unknown.stderr.contains("\(typo):2: rotate-in: expected always or tablet-mode, got \"tablet\""))
    }

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
