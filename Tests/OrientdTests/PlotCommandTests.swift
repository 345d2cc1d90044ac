import Foundation
import OrientTestSupport
import Testing

/// `orientd plot` as a person runs it: the image in the current folder, standard input, a failure's exit status.
/// What it draws and how it fails is tested in process (Tests/OrientdCommandsTests).
@Suite("orientd plot")
struct PlotCommandTests {
    static let demoTrace = TraceFiles.demo

    @Test("Without --output the image is the trace's name with .svg in the current folder, and its name is printed")
    func defaultOutput() throws {
        let folder = try TraceFiles.folder().path
        let plotted = try OrientdProcess.run(
            ["-c", "cd \(folder) && exec \"$0\" plot \(Self.demoTrace)", OrientdProcess.binary], executable: "/bin/sh")
        #expect(plotted.status == 0, "\(plotted.stderr)")
        #expect(plotted.stdout == "demo.svg\n")
        #expect(plotted.stderr.isEmpty)
        let image = try String(contentsOfFile: folder + "/demo.svg", encoding: .utf8)
        #expect(image.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<svg "), "\(image.prefix(80))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["demo.svg"])
    }

    @Test("Bad data read from standard input exits 65 naming <stdin> and its line, and leaves the image as it was")
    func standardInputFailure() throws {
        let output = try TraceFiles.folder().appendingPathComponent("plot.svg").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let bad = try OrientdProcess.run(["plot", "-", "-o", output], stdin: "t,x,y,z\n0,1,2,3\n0.1,1,2\n")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("<stdin>:3: expected 4 columns"), "\(bad.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")
    }
}
