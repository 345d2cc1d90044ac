import Foundation
import OrientCore
import OrientScenarios
import OrientTestSupport
import OrientTrace
import Testing

@Suite("orientd classify, in process")
struct ClassifyTests {
    @Test("Prints one JSON line per change, the same changes the engine commits")
    func matchesEngine() throws {
        let scenario = ScenarioLibrary.session(rate: 100, seed: 42)
        let path = try TraceFiles.write(scenario)
        let output = InProcessOrientd.run(["classify", path])
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

    @Test("--mask and --preferred decide the interface; --lock holds it")
    func maskAndLock() throws {
        let scenario = ScenarioLibrary.session(rate: 50, seed: 7)
        let path = try TraceFiles.write(scenario)
        let masked = try changes(InProcessOrientd.run(["classify", "--mask", "landscape", "--preferred", "landscape-left", path]).stdout)
        #expect(!masked.isEmpty)
        #expect(masked.allSatisfy { $0.interface == "landscape-left" || $0.interface == "landscape-right" })
        let locked = try changes(InProcessOrientd.run(["classify", "--lock", path]).stdout)
        #expect(Set(locked.map(\.interface)).count == 1)
        #expect(Set(locked.map(\.device)).count > 1)
    }

    @Test("Bad data exits 65 naming file and line; a missing file exits 66; bad usage exits 64")
    func exitStatuses() throws {
        let path = try TraceFiles.write(text: "t,x,y,z\n0,1,2,3\n0.1,1,2\n")
        let bad = InProcessOrientd.run(["classify", path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("\(path):3: expected 4 columns"), "\(bad.stderr)")
        // The changes before the fault are printed all the same.
        var text = "t,x,y,z\n"
        for i in 0..<50 { text += "\(Double(i) * 0.02),9.8,0,0\n" }
        let late = InProcessOrientd.run(["classify", try TraceFiles.write(text: text + "1,9.8,0\n")])
        #expect(late.status == 65)
        #expect(try changes(late.stdout).map(\.device) == ["landscape-right"])
        let missing = InProcessOrientd.run(["classify", "/nonexistent/trace"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/trace: cannot open"))
        // A real trace, so that an option wrongly taken would show as a classification (status 0).
        let trace = try TraceFiles.write(ScenarioLibrary.session(rate: 50, seed: 1))
        for arguments in [["classify", "--mask", "sideways", trace], ["classify", "--classifier", "settle=1", trace],
                          ["classify", "--classifier", "settle-time=-1", trace], ["classify", "--preferred", "up", trace],
                          ["classify", "--mount-matrix", "1,0,0", trace], ["classify"]] {
            let usage = InProcessOrientd.run(arguments)
            #expect(usage.status == 64, "\(arguments)")
            #expect(usage.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test("--no-mount-repair uses a mirrored matrix as given, and face up comes out as face down")
    func mountRepairSwitch() throws {
        let scenario = ScenarioLibrary.special(rate: 50).first { $0.name.hasPrefix("mirrored-hwdb-matrix") }!
        let path = try TraceFiles.write(scenario)
        let repaired = try changes(InProcessOrientd.run(["classify", path]).stdout)
        let unrepaired = try changes(InProcessOrientd.run(["classify", "--no-mount-repair", path]).stdout)
        #expect(repaired.last?.device == "face-up")
        #expect(unrepaired.last?.device == "face-down")
    }

    @Test("--classifier settings reach the engine")
    func classifierSettings() throws {
        let scenario = ScenarioLibrary.session(rate: 50, seed: 3)
        let path = try TraceFiles.write(scenario)
        let normal = try changes(InProcessOrientd.run(["classify", path]).stdout)
        let slow = try changes(InProcessOrientd.run(["classify", "--classifier", "settle-time=0.5", path]).stdout)
        let first = try #require(normal.first)
        let slowFirst = try #require(slow.first)
        #expect(slowFirst.device == first.device)
        #expect(slowFirst.t >= first.t + 0.4, "a 0.5 s settle time delays the first commit by about 0.46 s")
    }
}
