import OrientTestSupport
import Testing

/// `orientd classify` as scripts run it: standard input and the exit statuses as the shell sees them. What it
/// prints and why it fails is tested in process (Tests/OrientdCommandsTests).
@Suite("orientd classify")
struct ClassifyCommandTests {
    @Test("Reads standard input for -; bad data, a missing file and bad usage exit 65, 66 and 64")
    func standardInputAndExitStatuses() throws {
        var text = "t,x,y,z\n"
        for i in 0..<50 { text += "\(Double(i) * 0.02),9.8,0,0\n" }
        let output = try OrientdProcess.run(["classify", "-"], stdin: text)
        #expect(output.status == 0)
        #expect(try changes(output.stdout).map(\.device) == ["landscape-right"])
        #expect(try changes(output.stdout).map(\.interface) == ["landscape-left"])

        let bad = try OrientdProcess.run(["classify", "-"], stdin: "t,x,y,z\n0,1,2,3\n0.1,1,2\n")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("<stdin>:3: expected 4 columns"))
        let missing = try OrientdProcess.run(["classify", "/nonexistent/trace"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/trace: cannot open"))
        let usage = try OrientdProcess.run(["classify", "--mask", "sideways", "-"], stdin: "")
        #expect(usage.status == 64)
    }
}
