import Foundation
import OrientCore
import OrientScenarios
import OrientTestSupport
import OrientTrace
import Testing

@Suite("orientd plot, in process")
struct PlotTests {
    /// Plots `trace` and classifies it with the same options, checking that they tell the same story: the device
    /// band holds the commits in order after the `unknown` before the first, the interface band their interface
    /// orientations, and there is one commit mark per commit, at its time.
    @discardableResult
    func plotAgreesWithClassify(_ trace: String, options: [String] = []) throws -> PlottedSVG {
        let output = try TraceFiles.folder().appendingPathComponent("plot.svg").path
        let plotted = InProcessOrientd.run(["plot", trace, "-o", output] + options)
        #expect(plotted.status == 0, "\(plotted.stderr)")
        #expect(plotted.stdout.isEmpty, "the name is printed only when plot chose it")
        let lines = try changes(InProcessOrientd.run(["classify", trace] + options).stdout)
        let svg = try PlottedSVG(path: output)
        #expect(svg.root.name == "svg")
        #expect(try svg.band("device-band") == ["unknown"] + lines.map(\.device))
        #expect(try svg.band("interface-band") == runs(["unknown"] + lines.map(\.interface)))
        #expect(try svg.commitTimes() == lines.map(\.t))
        for series in ["x", "y", "z", "magnitude"] {
            #expect(try svg.element(id: "series-\(series)").value(of: "d")?.first == "M")
        }
        let legend = try svg.element(id: "legend").stringValue ?? ""
        for name in Set(lines.map(\.device) + lines.map(\.interface)) { #expect(legend.contains(name)) }
        return svg
    }

    @Test("Plots the demo trace: the bands and commit marks match what classify prints")
    func demoTrace() throws {
        let svg = try plotAgreesWithClassify(TraceFiles.demo)
        #expect(svg.heading.contains("2998 samples"), "\(svg.heading)")
        #expect(svg.size < 300_000, "\(svg.size) bytes")
    }

    @Test("A synthesised shake under --mask: the motion gate is shaded and the interface keeps to the mask")
    func shakeUnderMask() throws {
        let scenario = try #require(ScenarioLibrary.special(rate: 50).first { $0.name.hasPrefix("shaken-in-portrait") })
        let path = try TraceFiles.write(scenario)
        let svg = try plotAgreesWithClassify(path, options: ["--mask", "landscape", "--preferred", "landscape-left"])
        #expect(try !svg.element(id: "motion-gate").elements(forName: "rect").isEmpty)
        #expect(try Set(svg.band("interface-band")).isSubset(of: ["unknown", "landscape-left", "landscape-right"]))
        #expect(svg.heading.contains("mask landscape"))
    }

    @Test("An hour at 50 Hz: every sample is classified, and the image stays under 2 MB")
    func hourLong() throws {
        // Sessions back to back, each in the device's frame (no mount matrix), as long as an hour.
        var samples: [AccelSample] = []
        var offset = 0.0
        var seed: UInt64 = 1
        while offset < 3600 {
            let session = ScenarioLibrary.session(rate: 50, seed: seed)
            samples += session.samples.lazy.map { [offset] sample in
                AccelSample(time: offset + sample.time, acceleration: session.mountMatrix.apply(sample.acceleration))
            }.prefix { $0.time < 3600 }
            offset += (session.samples.last?.time ?? 0) + 1.0 / 50
            seed += 1
        }
        #expect(samples.count > 179_000)
        let path = try TraceFiles.write(samples, name: "hour.trace")

        let svg = try plotAgreesWithClassify(path)
        #expect(svg.heading.contains("\(samples.count) samples"), "\(svg.heading)")
        #expect(svg.size < 2_000_000, "\(svg.size) bytes")
    }

    @Test("No samples, one sample, or times and readings at Double's limits still give a well-formed image")
    func edgeCases() throws {
        let output = try TraceFiles.folder().appendingPathComponent("plot.svg").path
        for trace in ["t,x,y,z\n", "t,x,y,z\n5,0,-9.8,0\n", "t,x,y,z\n-1e308,0,-9.8,0\n1e308,0,-9.8,0\n",
                      "t,x,y,z\n0,0,-9.8,0\n1e-300,1e308,-1e308,1e308\n2e-300,0,-9.8,0\n"] {
            let path = try TraceFiles.write(text: trace)
            let plotted = InProcessOrientd.run(["plot", path, "-o", output])
            #expect(plotted.status == 0, "\(trace): \(plotted.stderr)")
            let svg = try PlottedSVG(path: output)
            #expect(svg.heading.hasPrefix("\(path): "))
        }
    }

    @Test("A missing trace, bad data and an unwritable output fail naming the file, and leave no file behind")
    func failures() throws {
        let folder = try TraceFiles.folder()
        let output = folder.appendingPathComponent("plot.svg").path

        let missing = InProcessOrientd.run(["plot", "/nonexistent/trace", "-o", output])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/trace: cannot open"))

        // An existing image stays as it was when the new one cannot be made.
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let badTrace = try TraceFiles.write(text: "t,x,y,z\n0,1,2,3\n0.1,1,2\n")
        let bad = InProcessOrientd.run(["plot", badTrace, "-o", output])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("\(badTrace):3: expected 4 columns"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")

        let noFolder = InProcessOrientd.run(["plot", TraceFiles.demo, "-o", "/nonexistent/folder/plot.svg"])
        #expect(noFolder.status == 73)
        #expect(noFolder.stderr.contains("/nonexistent/folder/plot.svg: cannot write"), "\(noFolder.stderr)")

        // A directory in the way: the temporary file is written, the rename fails, and the file is removed.
        let directory = folder.appendingPathComponent("taken").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let taken = InProcessOrientd.run(["plot", TraceFiles.demo, "-o", directory])
        #expect(taken.status == 73)
        #expect(taken.stderr.contains("\(directory): cannot write"), "\(taken.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["plot.svg", "taken"])

        for arguments in [["plot", "-"], ["plot", TraceFiles.demo, "-o", output, "--width", "10"],
                          ["plot", TraceFiles.demo, "-o", output, "--mask", "sideways"]] {
            #expect(InProcessOrientd.run(arguments).status == 64, "\(arguments)")
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")
    }
}
