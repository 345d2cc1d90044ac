import OrientCore

/// The bands (orientation; posture and tablet mode too for two sensors) and the commit marks.
extension TracePlot {
    /// One rectangle per span, coloured by its value's name (after `classPrefix`, for names that would say too
    /// little as a class, such as `on`), with the name written in when it fits.
    func drawBand<Value: Equatable & CustomStringConvertible>(
        _ svg: inout SVGWriter, id: String, label: String, top: Double, spans: [TraceTimeline.Span<Value>],
        time: LinearScale, classPrefix: String = ""
    ) {
        let c = SVGNumber.coordinate
        // A label too long for the margin ("tablet mode") is set smaller rather than cut off.
        if PlotStyle.textWidth(label) > Self.left - 8 {
            svg.element("text", ["x": c(Self.left - 6), "y": c(top + 16), "text-anchor": "end", "font-size": "10"], text: label)
        } else {
            svg.element("text", ["x": c(Self.left - 6), "y": c(top + 16), "text-anchor": "end"], text: label)
        }
        svg.element("g", ["id": id]) { svg in
            for span in spans {
                let x0 = time(span.start)
                let width = time(span.end) - x0
                let attributes: KeyValuePairs = [
                    "class": classPrefix + span.value.description, "x": c(x0), "y": c(top), "width": c(width),
                    "height": c(Self.bandHeight),
                ]
                // A tooltip only where there is room to point at it: in a long trace most spans are narrower
                // than a pixel, and their tooltips would make most of the file.
                if width >= 3 {
                    svg.element("rect", attributes, title: "\(label) \(span.value) from \(span.start) s to \(span.end) s")
                } else {
                    svg.element("rect", attributes)
                }
            }
            for span in spans {
                let x0 = time(span.start)
                let x1 = time(span.end)
                let name = span.value.description
                guard x1 - x0 >= PlotStyle.textWidth(name, fontSize: 11) + 6 else { continue }
                svg.element("text", [
                    "class": "label", "x": c((x0 + x1) / 2), "y": c(top + 16), "text-anchor": "middle",
                ], text: name)
            }
        }
    }

    /// A tick above the bands at each commit, with its trace time as `orientd classify` prints it.
    func drawCommits(_ svg: inout SVGWriter, _ changes: [OrientationEngine.Change], time: LinearScale) {
        let c = SVGNumber.coordinate
        svg.element("g", ["id": "commits"]) { svg in
            for change in changes {
                svg.element("path", [
                    "class": "commit", "d": "M\(c(time(change.time))) \(c(commitStrip.top))V\(c(commitStrip.bottom))",
                ], title: "\(change.time) s: \(change.device), interface \(change.interface ?? .unknown)")
            }
        }
    }
}
