import OrientCore

/// Lays a timeline out as an SVG document: the readings over time with the motion gate shaded behind them, a
/// band for the device orientation and one for the interface orientation, the commits, the axes and a legend.
/// A two-sensor trace adds a band for the posture, one for tablet mode and a panel of the hinge angle θ below
/// them; a trace of the display alone is drawn exactly as before they existed.
///
/// Its size depends on the width and on the number of changes, not on the number of samples: the readings are
/// drawn from their extremes per pixel column.
package struct TracePlot {
    /// The heading: the trace's name and what the interface band assumes.
    var title: String
    var maskDescription: String
    var width: Int

    package init(title: String, maskDescription: String, width: Int) {
        self.title = title
        self.maskDescription = maskDescription
        self.width = width
    }

    /// Whether the posture bands and the hinge angle panel are drawn; ``render(_:)`` sets it from the timeline.
    private(set) var showsPosture = false

    static let left = 78.0
    static let right = 16.0
    static let chartTop = 44.0
    static let chartHeight = 300.0
    static let bandHeight = 24.0
    static let bandGap = 6.0
    static let hingeHeight = 120.0

    var chartBottom: Double { Self.chartTop + Self.chartHeight }
    /// The commit marks go in a strip between the chart and the bands, where however many there are, they
    /// hide neither.
    var commitStrip: (top: Double, bottom: Double) { (chartBottom + 3, chartBottom + 13) }
    var deviceBandTop: Double { chartBottom + 16 }
    var interfaceBandTop: Double { deviceBandTop + Self.bandHeight + Self.bandGap }
    var postureBandTop: Double { interfaceBandTop + Self.bandHeight + Self.bandGap }
    var tabletModeBandTop: Double { postureBandTop + Self.bandHeight + Self.bandGap }
    var bandsBottom: Double { (showsPosture ? tabletModeBandTop : interfaceBandTop) + Self.bandHeight }
    /// The hinge angle panel, under the bands with room for its caption.
    var hingeTop: Double { bandsBottom + 24 }
    var hingeBottom: Double { hingeTop + Self.hingeHeight }
    /// The bottom of the last panel, which the time grid and axis run down to.
    var panelsBottom: Double { showsPosture ? hingeBottom : bandsBottom }
    var legendTop: Double { panelsBottom + 44 }
    /// Two rows of legend, and a third for the posture, tablet mode and θ.
    var height: Double { legendTop + (showsPosture ? 76 : 52) }
    /// The pixel columns the readings are drawn in.
    var columns: Int { max(1, Int(Double(width) - Self.left - Self.right)) }

    /// The bins of readings to keep while recording: two per pixel column, so each column draws from at least one.
    package static func bins(forWidth width: Int) -> Int {
        2 * max(1, Int(Double(width) - left - right))
    }

    package func render(_ timeline: TraceTimeline) -> String {
        var plot = self
        plot.showsPosture = timeline.posture != nil
        return plot.draw(timeline)
    }

    private func draw(_ timeline: TraceTimeline) -> String {
        let first = timeline.first ?? 0
        let last = timeline.last ?? first
        let time = LinearScale(domain: (first, last), pixels: (Self.left, Self.left + Double(columns)))
        let (readings, readingStep) = readingScale(timeline)
        var svg = SVGWriter()
        let w = String(width)
        let h = SVGNumber.coordinate(height)
        svg.element("svg", [
            "xmlns": "http://www.w3.org/2000/svg", "width": w, "height": h, "viewBox": "0 0 \(w) \(h)",
        ]) { svg in
            svg.element("title", text: "\(title): orientd plot")
            svg.element("style", text: showsPosture ? PlotStyle.sheet + "\n" + PlotStyle.postureSheet : PlotStyle.sheet)
            svg.element("rect", ["x": "0", "y": "0", "width": w, "height": h, "fill": "#fff"])
            svg.element("text", ["class": "heading", "x": SVGNumber.coordinate(Self.left), "y": "24"], text: heading(timeline))
            drawGrid(&svg, timeline, time: time, readings: readings, readingStep: readingStep)
            drawGate(&svg, timeline.gated, time: time)
            drawReadings(&svg, timeline, time: time, readings: readings)
            drawBand(&svg, id: "device-band", label: "device", top: deviceBandTop, spans: timeline.deviceSpans, time: time)
            drawBand(
                &svg, id: "interface-band", label: "interface", top: interfaceBandTop, spans: timeline.interfaceSpans,
                time: time)
            if let posture = timeline.posture {
                drawBand(&svg, id: "posture-band", label: "posture", top: postureBandTop, spans: timeline.postureSpans,
                    time: time)
                drawBand(
                    &svg, id: "tablet-mode-band", label: "tablet mode", top: tabletModeBandTop,
                    spans: timeline.tabletModeSpans, time: time, classPrefix: "tablet-mode-")
                drawHingePanel(&svg, posture, time: time, maxSampleGap: timeline.settings.maxSampleGap)
            }
            drawCommits(&svg, timeline.changes, time: time)
            drawLegend(&svg, timeline)
        }
        return svg.text
    }

    private func heading(_ timeline: TraceTimeline) -> String {
        let seconds = SVGNumber.fixed((timeline.last ?? 0) - (timeline.first ?? 0), decimals: 1)
        let commits = timeline.changes.count
        var text = "\(title): \(timeline.sampleCount) samples over \(seconds) s, \(commits) "
            + (commits == 1 ? "commit" : "commits") + "; interface under mask \(maskDescription)"
        if let posture = timeline.posture { text += ", rotate-in \(posture.rotateIn.rawValue)" }
        return text
    }

    /// m/s² onto the chart, covering the readings and ±1 g, with round ends; and the step between its ticks.
    private func readingScale(_ timeline: TraceTimeline) -> (LinearScale, Double) {
        let g = timeline.settings.gravity
        var lower = -g
        var upper = g
        for (_, bin) in timeline.envelope.bins {
            lower = min(lower, bin.minimum.min())
            upper = max(upper, bin.maximum.max())
        }
        let step = AxisTicks.decimalStep(span: upper - lower, count: 6)
        let scale = LinearScale(
            domain: ((lower / step).rounded(.down) * step, (upper / step).rounded(.up) * step),
            pixels: (chartBottom, Self.chartTop))
        return (scale, step)
    }
}
