import OrientCore

/// The legend: what each line, shade and mark means, and the colour of each orientation the bands show; for a
/// two-sensor trace, a third row for θ, the postures and tablet mode.
extension TracePlot {
    func drawLegend(_ svg: inout SVGWriter, _ timeline: TraceTimeline) {
        let c = SVGNumber.coordinate
        svg.element("g", ["id": "legend"]) { svg in
            var x = Self.left
            var y = legendTop
            func entry(_ text: String, swatch: (inout SVGWriter, Double, Double) -> Void) {
                swatch(&svg, x, y)
                svg.element("text", ["x": c(x + 22), "y": c(y + 4)], text: text)
                x += 22 + PlotStyle.textWidth(text) + 18
            }
            for series in PlotStyle.series {
                entry(series.label) { svg, x, y in
                    svg.element("path", ["class": "series \(series.name)", "d": "M\(c(x)) \(c(y))h16"])
                }
            }
            entry("1 g") { svg, x, y in svg.element("path", ["class": "gravity", "d": "M\(c(x)) \(c(y))h16"]) }
            entry("motion-gated") { svg, x, y in
                svg.element("rect", ["class": "gated", "x": c(x), "y": c(y - 6), "width": "16", "height": "12"])
            }
            entry("commit") { svg, x, y in svg.element("path", ["class": "commit", "d": "M\(c(x + 8)) \(c(y - 7))v14"]) }

            x = Self.left
            y += 24
            let shown = Set(timeline.deviceSpans.map(\.value.rawValue) + timeline.interfaceSpans.map(\.value.rawValue))
            func swatch(_ name: String, _ label: String) {
                entry(label) { svg, x, y in
                    svg.element("rect", [
                        "class": name, "x": c(x), "y": c(y - 6), "width": "16", "height": "12", "stroke": "#999",
                    ])
                }
            }
            for name in PlotStyle.orientations where shown.contains(name) { swatch(name, name) }

            guard let posture = timeline.posture else { return }
            x = Self.left
            y += 24
            entry("θ") { svg, x, y in svg.element("path", ["class": "series hinge-angle", "d": "M\(c(x)) \(c(y))h16"]) }
            if !posture.unknownAngle.isEmpty {
                entry("θ unknown") { svg, x, y in
                    svg.element("rect", ["class": "unknown-angle", "x": c(x), "y": c(y - 6), "width": "16", "height": "12"])
                }
            }
            let postures = Set(timeline.postureSpans.map(\.value.rawValue))
            // `unknown` has its swatch in the row above when an orientation band shows it.
            for value in Posture.allCases where postures.contains(value.rawValue) {
                if value == .unknown, shown.contains(value.rawValue) { continue }
                swatch(value.rawValue, value.rawValue)
            }
            let modes = Set(timeline.tabletModeSpans.map(\.value))
            for mode in [TabletModeBand.on, .off, .unknown] where modes.contains(mode) {
                swatch("tablet-mode-\(mode)", "tablet mode \(mode)")
            }
        }
    }
}
