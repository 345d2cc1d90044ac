/// The hinge angle panel of a two-sensor trace: θ over time, broken where it could not be read, with the angles
/// at which tablet mode turns on and off.
extension TracePlot {
    static let hingeTicks: [Double] = [0, 90, 180, 270, 360]

    func drawHingePanel(_ svg: inout SVGWriter, _ posture: PostureTimeline, time: LinearScale, maxSampleGap: Double) {
        let c = SVGNumber.coordinate
        let angle = LinearScale(domain: (0, 360), pixels: (hingeBottom, hingeTop))
        let right = Self.left + Double(columns)

        svg.element("text", ["x": c(Self.left), "y": c(hingeTop - 6)],
            text: "hinge angle θ in degrees (gaps where it cannot be read: hinge upright, or moving)")
        svg.element("path", [
            "class": "grid", "d": Self.hingeTicks.map { "M\(c(Self.left)) \(c(angle($0)))H\(c(right))" }.joined(),
        ])
        svg.element("rect", [
            "class": "frame", "x": c(Self.left), "y": c(hingeTop), "width": String(columns), "height": c(Self.hingeHeight),
        ])
        svg.element("g", ["id": "hinge-axis", "text-anchor": "end"]) { svg in
            for tick in Self.hingeTicks {
                svg.element("text", ["x": c(Self.left - 6), "y": c(angle(tick) + 4)], text: "\(Int(tick))°")
            }
        }
        drawStretches(
            &svg, posture.unknownAngle, id: "hinge-unknown", class: "unknown-angle", describedAs: "hinge angle unknown",
            top: hingeTop, height: Self.hingeHeight, time: time)
        svg.element("g", ["id": "tablet-mode-angles"]) { svg in
            for (degrees, what) in [(posture.tabletModeAngles.on, "on"), (posture.tabletModeAngles.off, "off")] {
                svg.element("path", ["class": "threshold", "d": "M\(c(Self.left)) \(c(angle(degrees)))H\(c(right))"],
                    title: "tablet mode \(what) at \(SVGNumber.fixed(degrees, decimals: 1))°")
            }
        }

        var d = ""
        var previousEnd: Double?
        var unknown = posture.unknownAngle[...]
        for (column, bin) in columnBins(posture.angles, time: time) {
            // The line breaks where θ was unknown since the last point, or where the samples stop for longer
            // than the filters bridge.
            var broken = previousEnd == nil
            if let previousEnd {
                if bin.first - previousEnd > maxSampleGap { broken = true }
                while let next = unknown.first, next.lowerBound <= bin.first {
                    if next.lowerBound > previousEnd { broken = true }
                    unknown = unknown.dropFirst()
                }
            }
            let x = c(Self.left + Double(column) + 0.5)
            let low = bin.minimum[0]
            let high = bin.maximum[0]
            let ordered = bin.minimumAt[0] <= bin.maximumAt[0] ? [low, high] : [high, low]
            for (i, value) in (low == high ? [low] : ordered).enumerated() {
                d += (i == 0 && broken ? "M" : " ") + "\(x) \(c(angle(value)))"
            }
            previousEnd = bin.last
        }
        svg.element("path", ["id": "series-hinge-angle", "class": "series hinge-angle", "d": d])
    }
}
