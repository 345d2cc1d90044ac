import Foundation
import OrientCore
import OrientScenarios
import OrientTrace
import Testing

/// Writes a scenario as a trace file, with its mount matrix in the metadata.
func writeTrace(_ scenario: Scenario) throws -> String {
    var text = TraceFormat.preamble(TraceMetadata(mountMatrix: scenario.mountMatrix, source: scenario.name))
    for sample in scenario.samples { text += TraceFormat.line(sample) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("scenario.trace").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

struct ChangeLine: Decodable, Equatable {
    let t: Double
    let device: String
    let interface: String
}

func changes(_ stdout: String) throws -> [ChangeLine] {
    try stdout.split(separator: "\n").map { try JSONDecoder().decode(ChangeLine.self, from: Data($0.utf8)) }
}

@Suite("orientd classify")
struct ClassifyCommandTests {
    @Test("Prints one JSON line per change, the same changes the engine commits")
    func matchesEngine() throws {
        let scenario = ScenarioLibrary.session(rate: 100, seed: 42)
        let path = try writeTrace(scenario)
        let output = try OrientdProcess.run(["classify", path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = try changes(output.stdout)
        // The engine fed the samples as the file holds them (at the format's precision).
        let reader = try TraceReader(path: path)
        var engine = try OrientationEngine(mountMatrix: reader.metadata.mountMatrix ?? .identity, tracker: InterfaceOrientationTracker())
        var expected: [ScenarioResult.Commit] = []
        while let sample = try reader.next() {
            if let change = try engine.feed(sample) { expected.append(.init(time: change.time, orientation: change.device)) }
        }
        #expect(expected.map(\.orientation) == scenario.run().commits.map(\.orientation), "precision does not change the result")
        #expect(lines.map(\.device) == expected.map(\.orientation.rawValue))
        #expect(lines.map(\.t) == expected.map(\.time))
        for line in lines {
            let device = try #require(DeviceOrientation(rawValue: line.device))
            if let asked = device.interfaceOrientation { #expect(line.interface == asked.rawValue) }
        }
    }

    @Test("Reads standard input for -")
    func standardInput() throws {
        var text = "t,x,y,z\n"
        for i in 0..<50 { text += "\(Double(i) * 0.02),9.8,0,0\n" }
        let output = try OrientdProcess.run(["classify", "-"], stdin: text)
        #expect(output.status == 0)
        #expect(try changes(output.stdout).map(\.device) == ["landscape-right"])
        #expect(try changes(output.stdout).map(\.interface) == ["landscape-left"])
    }

    @Test("--mask and --preferred decide the interface; --lock holds it")
    func maskAndLock() throws {
        let scenario = ScenarioLibrary.session(rate: 50, seed: 7)
        let path = try writeTrace(scenario)
        let masked = try changes(try OrientdProcess.run(["classify", "--mask", "landscape", "--preferred", "landscape-left", path]).stdout)
        #expect(!masked.isEmpty)
        #expect(masked.allSatisfy { $0.interface == "landscape-left" || $0.interface == "landscape-right" })
        let locked = try changes(try OrientdProcess.run(["classify", "--lock", path]).stdout)
        #expect(Set(locked.map(\.interface)).count == 1)
        #expect(Set(locked.map(\.device)).count > 1)
    }

    @Test("Bad data exits 65 naming file and line; a missing file exits 66; bad usage exits 64")
    func exitStatuses() throws {
        let bad = try OrientdProcess.run(["classify", "-"], stdin: "t,x,y,z\n0,1,2,3\n0.1,1,2\n")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("<stdin>:3: expected 4 columns"))
        let missing = try OrientdProcess.run(["classify", "/nonexistent/trace"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/trace: cannot open"))
        for arguments in [["classify", "--mask", "sideways", "-"], ["classify", "--classifier", "settle=1", "-"],
                          ["classify", "--classifier", "settle-time=-1", "-"], ["classify", "--preferred", "up", "-"],
                          ["classify", "--mount-matrix", "1,0,0", "-"], ["classify"]] {
            let usage = try OrientdProcess.run(arguments, stdin: "")
            #expect(usage.status == 64, "\(arguments)")
        }
    }

    @Test("--no-mount-repair uses a mirrored matrix as given, and face up comes out as face down")
    func mountRepairSwitch() throws {
        let scenario = ScenarioLibrary.special(rate: 50).first { $0.name.hasPrefix("mirrored-hwdb-matrix") }!
        let path = try writeTrace(scenario)
        let repaired = try changes(try OrientdProcess.run(["classify", path]).stdout)
        let unrepaired = try changes(try OrientdProcess.run(["classify", "--no-mount-repair", path]).stdout)
        #expect(repaired.last?.device == "face-up")
        #expect(unrepaired.last?.device == "face-down")
    }

    @Test("--classifier settings reach the engine")
    func classifierSettings() throws {
        let scenario = ScenarioLibrary.session(rate: 50, seed: 3)
        let path = try writeTrace(scenario)
        let normal = try changes(try OrientdProcess.run(["classify", path]).stdout)
        let slow = try changes(try OrientdProcess.run(["classify", "--classifier", "settle-time=0.5", path]).stdout)
        let first = try #require(normal.first)
        let slowFirst = try #require(slow.first)
        #expect(slowFirst.device == first.device)
        #expect(slowFirst.t >= first.t + 0.4, "a 0.5 s settle time delays the first commit by about 0.46 s")
    }
}
