import Foundation
import OrientCore
import OrientScenarios
import OrientTrace
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG written by `orientd plot`, parsed as XML (which fails unless it is well-formed).
struct PlottedSVG {
    let root: XMLElement
    let size: Int

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        size = data.count
        root = try #require(try XMLDocument(data: data).rootElement())
    }

    func element(id: String) throws -> XMLElement {
        try #require(Self.descendants(of: root).first { $0.value(of: "id") == id }, "no #\(id)")
    }

    func contains(id: String) -> Bool {
        Self.descendants(of: root).contains { $0.value(of: "id") == id }
    }

    /// The orientation of each span in a band, in order: the class of its rectangles.
    func band(_ id: String) throws -> [String] {
        try element(id: id).elements(forName: "rect").map { $0.value(of: "class") ?? "" }
    }

    /// The trace time of each commit mark, read from its tooltip ("12.34 s: landscape-left, interface ...").
    func commitTimes() throws -> [Double] {
        try element(id: "commits").elements(forName: "path").map { mark in
            let title = try #require(mark.elements(forName: "title").first?.stringValue)
            return try #require(title.components(separatedBy: " s: ").first.flatMap(Double.init))
        }
    }

    var heading: String {
        Self.descendants(of: root).first { $0.value(of: "class") == "heading" }?.stringValue ?? ""
    }

    private static func descendants(of element: XMLElement) -> [XMLElement] {
        let children = (element.children ?? []).compactMap { $0 as? XMLElement }
        return children + children.flatMap(descendants)
    }
}

extension XMLElement {
    /// An attribute's value. `attribute(forName:)` misses attributes of an element in a default namespace (here
    /// SVG's) on Linux, so this looks through them all.
    func value(of attribute: String) -> String? {
        attributes?.first { $0.name == attribute }?.stringValue
    }
}

/// Consecutive repeats dropped: the spans a band shows for a sequence of values.
func runs(_ values: [String]) -> [String] {
    values.reduce(into: []) { result, value in if result.last != value { result.append(value) } }
}

func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-plot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

@Suite("orientd plot")
struct PlotCommandTests {
    static let demoTrace = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Traces/demo.trace").standardized.path

    /// Plots `trace` and classifies it with the same options, checking that they tell the same story: the device
    /// band holds the commits in order after the `unknown` before the first, the interface band their interface
    /// orientations, and there is one commit mark per commit, at its time.
    @discardableResult
    func plotAgreesWithClassify(_ trace: String, options: [String] = []) throws -> PlottedSVG {
        let output = try temporaryFolder().appendingPathComponent("plot.svg").path
        let plotted = try OrientdProcess.run(["plot", trace, "-o", output] + options)
        #expect(plotted.status == 0, "\(plotted.stderr)")
        #expect(plotted.stdout.isEmpty && plotted.stderr.isEmpty)
        let lines = try changes(try OrientdProcess.run(["classify", trace] + options).stdout)
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
        let svg = try plotAgreesWithClassify(Self.demoTrace)
        #expect(svg.heading.contains("2998 samples"), "\(svg.heading)")
        #expect(svg.size < 300_000, "\(svg.size) bytes")
    }

    @Test("A synthesised shake under --mask: the motion gate is shaded and the interface keeps to the mask")
    func shakeUnderMask() throws {
        let scenario = try #require(ScenarioLibrary.special(rate: 50).first { $0.name.hasPrefix("shaken-in-portrait") })
        let path = try writeTrace(scenario)
        let svg = try plotAgreesWithClassify(path, options: ["--mask", "landscape", "--preferred", "landscape-left"])
        #expect(try !svg.element(id: "motion-gate").elements(forName: "rect").isEmpty)
        #expect(try Set(svg.band("interface-band")).isSubset(of: ["unknown", "landscape-left", "landscape-right"]))
        #expect(svg.heading.contains("mask landscape"))
    }

    @Test("An hour at 50 Hz: every sample is classified, and the image stays under 2 MB")
    func hourLong() throws {
        let tool = URL(fileURLWithPath: OrientdProcess.binary).deletingLastPathComponent()
            .appendingPathComponent("scenario-trace").path
        let generated = try OrientdProcess.run(
            ["--rate", "50", "--seconds", "3600", "--seed", "1"], executable: tool)
        #expect(generated.status == 0)
        let path = try temporaryFolder().appendingPathComponent("hour.trace").path
        try Data(generated.stdout.utf8).write(to: URL(fileURLWithPath: path))
        let samples = generated.stdout.split(separator: "\n").count { $0.first?.isNumber == true }
        #expect(samples > 179_000)

        let svg = try plotAgreesWithClassify(path)
        #expect(svg.heading.contains("\(samples) samples"), "\(svg.heading)")
        #expect(svg.size < 2_000_000, "\(svg.size) bytes")
    }

    @Test("No samples, one sample, or times and readings at Double's limits still give a well-formed image")
    func edgeCases() throws {
        let output = try temporaryFolder().appendingPathComponent("plot.svg").path
        for trace in ["t,x,y,z\n", "t,x,y,z\n5,0,-9.8,0\n", "t,x,y,z\n-1e308,0,-9.8,0\n1e308,0,-9.8,0\n",
                      "t,x,y,z\n0,0,-9.8,0\n1e-300,1e308,-1e308,1e308\n2e-300,0,-9.8,0\n"] {
            let plotted = try OrientdProcess.run(["plot", "-", "-o", output], stdin: trace)
            #expect(plotted.status == 0, "\(trace): \(plotted.stderr)")
            let svg = try PlottedSVG(path: output)
            #expect(svg.heading.hasPrefix("<stdin>: "))
        }
    }

    @Test("Without --output the image is the trace's name with .svg in the current folder, and its name is printed")
    func defaultOutput() throws {
        let folder = try temporaryFolder().path
        let plotted = try OrientdProcess.run(
            ["-c", "cd \(folder) && exec \"$0\" plot \(Self.demoTrace)", OrientdProcess.binary], executable: "/bin/sh")
        #expect(plotted.status == 0, "\(plotted.stderr)")
        #expect(plotted.stdout == "demo.svg\n")
        #expect(try PlottedSVG(path: folder + "/demo.svg").root.name == "svg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["demo.svg"])
    }

    @Test("A missing trace, bad data and an unwritable output fail naming the file, and leave no file behind")
    func failures() throws {
        let folder = try temporaryFolder()
        let output = folder.appendingPathComponent("plot.svg").path

        let missing = try OrientdProcess.run(["plot", "/nonexistent/trace", "-o", output])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/trace: cannot open"))

        // An existing image stays as it was when the new one cannot be made.
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let bad = try OrientdProcess.run(["plot", "-", "-o", output], stdin: "t,x,y,z\n0,1,2,3\n0.1,1,2\n")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("<stdin>:3: expected 4 columns"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")

        let noFolder = try OrientdProcess.run(["plot", Self.demoTrace, "-o", "/nonexistent/folder/plot.svg"])
        #expect(noFolder.status == 73)
        #expect(noFolder.stderr.contains("/nonexistent/folder/plot.svg: cannot write"), "\(noFolder.stderr)")

        // A directory in the way: the temporary file is written, the rename fails, and the file is removed.
        let directory = folder.appendingPathComponent("taken").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let taken = try OrientdProcess.run(["plot", Self.demoTrace, "-o", directory])
        #expect(taken.status == 73)
        #expect(taken.stderr.contains("\(directory): cannot write"), "\(taken.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["plot.svg", "taken"])

        for arguments in [["plot", "-"], ["plot", Self.demoTrace, "-o", output, "--width", "10"],
                          ["plot", Self.demoTrace, "-o", output, "--mask", "sideways"]] {
            #expect(try OrientdProcess.run(arguments).status == 64, "\(arguments)")
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")
    }
}
