import Foundation
import OrientConfiguration
import OrientTestSupport
import Testing

@testable import orientd

/// `orientd check-config`: what a person who gets a setting wrong is told (issue 54, "Errors and waits"), the file,
/// the line and the key, and what a valid file amounts to.
@Suite("orientd check-config, in process")
struct CheckConfigTests {
    private static func file(_ text: String) throws -> String {
        let path = try TraceFiles.folder().appendingPathComponent("orientd.conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("check-config shows rotate-in and the tablet-mode angles, set or by default")
    func rotateInAndAngles() throws {
        let set = try Self.file("rotate-in = always\ntablet-mode-on-angle = 210\ntablet-mode-off-angle = 150\n")
        let shown = InProcessOrientd.run(["check-config", set])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("\(set): valid. Resulting settings (defaults where the file is silent):\n"))
        #expect(shown.stdout.contains("  rotate-in: always\n"))
        #expect(shown.stdout.contains("  tablet-mode-on-angle: 210.0°\n"))
        #expect(shown.stdout.contains("  tablet-mode-off-angle: 150.0°\n"))

        let defaults = InProcessOrientd.run(["check-config", try Self.file("")])
        #expect(defaults.stdout.contains("  rotate-in: tablet-mode with a base (keyboard) sensor, always without one\n"))
        #expect(defaults.stdout.contains("  tablet-mode-on-angle: 200.0°\n"))
        #expect(defaults.stdout.contains("  tablet-mode-off-angle: 160.0°\n"))
    }

    @Test("check-config names the file, line and key of a bad setting, exit 78")
    func badSettings() throws {
        let bad = try Self.file("mask = all\ntablet-mode-on-angle = 180\ntablet-mode-off-angle = 190\n")
        let refused = InProcessOrientd.run(["check-config", bad])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("\(bad):3: tablet-mode-off-angle: must be below tablet-mode-on-angle (180.0)"))
        #expect(refused.stdout.isEmpty)
        let typo = try Self.file("\nrotate-in = tablet\n")
        let unknown = InProcessOrientd.run(["check-config", typo])
        #expect(unknown.status == 78)
        #expect(unknown.stderr.contains("\(typo):2: rotate-in: expected always or tablet-mode, got \"tablet\""))
    }

    @Test("A control group that does not exist is refused naming the line; one that exists, or a number, is taken")
    func missingControlGroup() throws {
        let path = try Self.file("mask = all\ncontrol-group = nosuchgroup-54\n")
        let checked = InProcessOrientd.run(["check-config", path])
        #expect(checked.status == 78)
        #expect(
            checked.stderr.hasPrefix("orientd: \(path):2: control-group: no group \"nosuchgroup-54\" in /etc/group"),
            "\(checked.stderr)")
        // A group that exists, and a number (a primary group needs no line), are taken.
        for group in ["root", "4242"] {
            let fine = InProcessOrientd.run(["check-config", try Self.file("control-group = \(group)\n")])
            #expect(fine.status == 0, "\(group): \(fine.stderr)")
        }
    }

    /// `orientd run`'s own reading, the one it makes at start and again at each SIGHUP.
    @Test("run refuses a control group that does not exist as check-config does, naming the file's line or the option")
    func missingControlGroupAtRun() throws {
        func load(_ arguments: [String]) throws -> DaemonConfiguration {
            let run = try #require(try Orientd.parseAsRoot(["run"] + arguments) as? Orientd.Run)
            return try Orientd.Run.loadConfiguration(options: run.options, environment: [:])
        }
        func failure(_ arguments: [String]) -> String {
            do { return "taken: \(try load(arguments))" } catch { return "\(error)" }
        }
        let path = try Self.file("mask = all\ncontrol-group = nosuchgroup-54\n")
        let group = "no group \"nosuchgroup-54\" in /etc/group"
        let file = failure(["--config", path])
        #expect(file.hasPrefix("\(path):2: control-group: \(group)"), "\(file)")
        let option = failure(["--config", "/dev/null", "--control-group", "nosuchgroup-54"])
        #expect(option.hasPrefix("--control-group: \(group)"), "\(option)")
        #expect(try load(["--config", "/dev/null", "--control-group", "root"]).controlGroup == "root")
    }

    @Test("A trailing comment is a comment, and a key in the wrong part of the file is pointed to its place")
    func commentsAndPlaces() throws {
        let commented = InProcessOrientd.run(["check-config", try Self.file("mask = landscape  # the dock holds it wide\n")])
        #expect(commented.status == 0, "\(commented.stderr)")
        #expect(commented.stdout.contains("  mask: landscape\n"), "\(commented.stdout)")

        let appended = try Self.file("[classifier]\nsettle-time = 0.06\ntablet-mode-switch = yes\n")
        let misplaced = InProcessOrientd.run(["check-config", appended])
        #expect(misplaced.status == 78)
        #expect(
            misplaced.stderr.contains("\(appended):3: classifier.tablet-mode-switch: tablet-mode-switch is a top-level key"),
            "\(misplaced.stderr)")
        #expect(misplaced.stderr.contains("move it before the first [section] header"), "\(misplaced.stderr)")
    }

    @Test("A file that cannot be read exits 66 naming it")
    func unreadable() {
        let missing = InProcessOrientd.run(["check-config", "/nonexistent/orientd.conf"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("orientd: /nonexistent/orientd.conf: cannot read: "), "\(missing.stderr)")
    }
}
