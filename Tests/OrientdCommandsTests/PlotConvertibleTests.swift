import Foundation
import OrientCore
import OrientTestSupport
import OrientTrace
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("orientd plot: two-sensor traces, in process")
struct PlotConvertibleTests {
    /// Plots `trace` and classifies it with the same options, checking that they tell the same story: the
    /// orientation bands and commit marks hold classify's orientation lines, the posture band its postures and
    /// the tablet-mode band its tablet modes, each after the `unknown` before the first.
    func plotAgreesWithClassify(_ trace: String, options: [String] = []) throws -> (PlottedSVG, [PrintedChange]) {
        let output = try TraceFiles.folder().appendingPathComponent("plot.svg").path
        let plotted = InProcessOrientd.run(["plot", trace, "-o", output] + options)
        #expect(plotted.status == 0, "\(plotted.stderr)")
        #expect(plotted.stdout.isEmpty, "the name is printed only when plot chose it")
        let lines = try PrintedChange.all(InProcessOrientd.run(["classify", trace] + options).stdout)
        let svg = try PlottedSVG(path: output)
        let orientation = lines.filter { $0.device != nil }
        #expect(try svg.band("device-band") == runs(["unknown"] + orientation.compactMap(\.device)))
        #expect(try svg.band("interface-band") == runs(["unknown"] + orientation.compactMap(\.interface)))
        #expect(try svg.commitTimes() == orientation.map(\.t))
        #expect(try svg.band("posture-band") == ["unknown"] + lines.compactMap(\.posture))
        let modes = lines.compactMap { line in line.tabletMode.map { $0.map { $0 ? "on" : "off" } ?? "unknown" } }
        #expect(try svg.band("tablet-mode-band") == (["unknown"] + modes).map { "tablet-mode-\($0)" })
        #expect(try svg.element(id: "series-hinge-angle").value(of: "d")?.first == "M")
        return (svg, lines)
    }

    /// The subpaths of the θ line: one per stretch in which it was known.
    func hingeSubpaths(_ svg: PlottedSVG) throws -> Int {
        try #require(try svg.element(id: "series-hinge-angle").value(of: "d")).count { $0 == "M" }
    }

    @Test("A laptop folded to a tablet: posture and tablet-mode bands, and θ in one unbroken line")
    func fold() throws {
        let (svg, lines) = try plotAgreesWithClassify(try ConvertibleTrace.write(ConvertibleTrace.fold))
        #expect(try svg.band("posture-band").first == "unknown")
        #expect(try svg.band("posture-band").dropFirst().first == "laptop" && svg.band("posture-band").last == "tablet")
        #expect(try svg.band("tablet-mode-band") == ["tablet-mode-unknown", "tablet-mode-off", "tablet-mode-on"])
        #expect(try hingeSubpaths(svg) == 1)
        #expect(try svg.element(id: "hinge-unknown").elements(forName: "rect").isEmpty)
        let thresholds = try svg.element(id: "tablet-mode-angles").elements(forName: "path")
            .compactMap { $0.elements(forName: "title").first?.stringValue }
        #expect(thresholds == ["tablet mode on at 200°", "tablet mode off at 160°"])
        #expect(svg.heading.contains("250 samples") && svg.heading.contains("rotate-in tablet-mode"), "\(svg.heading)")
        let legend = try svg.element(id: "legend").stringValue ?? ""
        for text in ["θ", "laptop", "tablet", "tablet mode on", "tablet mode off"] { #expect(legend.contains(text), "\(text)") }
        #expect(!legend.contains("θ unknown"), "θ was never unknown")
        #expect(lines.contains { $0.posture == "tablet" })
    }

    @Test("θ unknown while the hinge stands upright: the line breaks and the stretch is shaded")
    func unknownAngle() throws {
        var samples = (0..<50).map { ConvertibleTrace.sample(time: Double($0) / 50, theta: 120) }
        let side = Vector3(ConvertibleTrace.g, 0, 0)
        samples += (50..<100).map { AccelSample(time: Double($0) / 50, acceleration: side, base: side) }
        samples += (100..<200).map { ConvertibleTrace.sample(time: Double($0) / 50, theta: 120 + 60 * (Double($0) / 50 - 2)) }
        let (svg, lines) = try plotAgreesWithClassify(try ConvertibleTrace.write(samples))
        #expect(try hingeSubpaths(svg) == 2)
        let shaded = try svg.element(id: "hinge-unknown").elements(forName: "rect")
        #expect(shaded.count == 1)
        let title = try #require(shaded.first?.elements(forName: "title").first?.stringValue)
        let unknownAt = try #require(lines.first { $0.hingeAngle == .some(nil) }?.t)
        #expect(title.hasPrefix("hinge angle unknown from \(unknownAt) s to "), "\(title)")
        #expect((try svg.element(id: "legend").stringValue ?? "").contains("θ unknown"))
    }

    @Test("--rotate-in always: the interface band follows the device, and the heading says so")
    func rotateInAlways() throws {
        let (svg, _) = try plotAgreesWithClassify(
            try ConvertibleTrace.write(ConvertibleTrace.fold), options: ["--rotate-in", "always"])
        #expect(svg.heading.contains("rotate-in always"))
        #expect(try svg.band("interface-band").contains("portrait-upside-down"))
    }

    @Test("A trace of the display alone has no posture bands, θ panel or their styles")
    func displayAlone() throws {
        let output = try TraceFiles.folder().appendingPathComponent("plot.svg").path
        #expect(InProcessOrientd.run(["plot", TraceFiles.demo, "-o", output]).status == 0)
        let svg = try PlottedSVG(path: output)
        for id in ["posture-band", "tablet-mode-band", "series-hinge-angle", "hinge-unknown", "tablet-mode-angles"] {
            #expect(!svg.contains(id: id), "\(id)")
        }
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!text.contains("tablet-mode") && !text.contains("rotate-in") && !text.contains("θ"))
        #expect(svg.contains(id: "device-band") && svg.contains(id: "interface-band"))
    }
}
