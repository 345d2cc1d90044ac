/// The chart: grid and axes, the motion gate behind the readings, and the readings themselves.
extension TracePlot {
    func drawGrid(
        _ svg: inout SVGWriter, _ timeline: TraceTimeline, time: LinearScale, readings: LinearScale, readingStep: Double
    ) {
        let first = timeline.first ?? 0
        let span = (timeline.last ?? first) - first
        // About one time label per 110 pixels, which fits "1:00:00" with room between.
        let timeStep = AxisTicks.timeStep(span: span, count: max(1, columns / 110))
        let timeTicks = AxisTicks.values(from: 0, to: span, step: timeStep)
        let readingTicks = AxisTicks.values(from: readings.domain.start, to: readings.domain.end, step: readingStep)
        let c = SVGNumber.coordinate
        let right = Self.left + Double(columns)

        var lines = ""
        for tick in timeTicks { lines += "M\(c(time(first + tick))) \(c(Self.chartTop))V\(c(panelsBottom))" }
        for tick in readingTicks { lines += "M\(c(Self.left)) \(c(readings(tick)))H\(c(right))" }
        svg.element("path", ["class": "grid", "d": lines])
        svg.element("rect", [
            "class": "frame", "x": c(Self.left), "y": c(Self.chartTop), "width": String(columns),
            "height": c(Self.chartHeight),
        ])
        svg.element("path", [
            "class": "gravity", "d": "M\(c(Self.left)) \(c(readings(timeline.settings.gravity)))H\(c(right))",
        ])

        svg.element("g", ["id": "time-axis", "text-anchor": "middle"]) { svg in
            for tick in timeTicks {
                svg.element("text", ["x": c(time(first + tick)), "y": c(panelsBottom + 16)],
                    text: AxisTicks.timeLabel(tick, step: timeStep))
            }
            svg.element("text", ["x": c((Self.left + right) / 2), "y": c(panelsBottom + 32)],
                text: "time since the first sample (trace time \(first) s)")
        }
        svg.element("g", ["id": "reading-axis", "text-anchor": "end"]) { svg in
            let decimals = readingStep < 1 ? 1 : 0
            for tick in readingTicks {
                svg.element("text", ["x": c(Self.left - 6), "y": c(readings(tick) + 4)],
                    text: SVGNumber.fixed(tick, decimals: decimals))
            }
        }
        svg.element("text", ["x": c(Self.left), "y": c(Self.chartTop - 6)],
            text: "m/s² in the device frame (mount matrix applied), as the classifier sees them")
    }

    /// Shades the stretches in which the motion gate held commits back.
    func drawGate(_ svg: inout SVGWriter, _ gated: [ClosedRange<Double>], time: LinearScale) {
        drawStretches(
            &svg, gated, id: "motion-gate", class: "gated", describedAs: "motion-gated", top: Self.chartTop,
            height: Self.chartHeight, time: time)
    }

    /// Shades stretches of time over a panel. Stretches less than a pixel apart are drawn as one, and each is at
    /// least a pixel wide, so that a long trace stays small and each still shows.
    func drawStretches(
        _ svg: inout SVGWriter, _ stretches: [ClosedRange<Double>], id: String, class name: String,
        describedAs description: String, top: Double, height: Double, time: LinearScale
    ) {
        var merged: [(x0: Double, x1: Double, start: Double, end: Double)] = []
        for range in stretches {
            let x0 = time(range.lowerBound)
            let x1 = max(time(range.upperBound), x0 + 1)
            if let last = merged.indices.last, x0 - merged[last].x1 < 1 {
                merged[last].x1 = max(merged[last].x1, x1)
                merged[last].end = range.upperBound
            } else {
                merged.append((x0, x1, range.lowerBound, range.upperBound))
            }
        }
        let c = SVGNumber.coordinate
        svg.element("g", ["id": id]) { svg in
            for stretch in merged {
                svg.element("rect", [
                    "class": name, "x": c(stretch.x0), "y": c(top), "width": c(stretch.x1 - stretch.x0),
                    "height": c(height),
                ], title: "\(description) from \(stretch.start) s to \(stretch.end) s")
            }
        }
    }

    /// x, y, z and magnitude as lines through each pixel column's extremes, in the order they occurred. A line
    /// breaks where samples are further apart than the classifier's max-sample-gap, as its filter restarts there.
    func drawReadings(_ svg: inout SVGWriter, _ timeline: TraceTimeline, time: LinearScale, readings: LinearScale) {
        let perColumn = columnBins(timeline.envelope, time: time)
        let c = SVGNumber.coordinate
        let gap = timeline.settings.maxSampleGap
        svg.element("g", ["id": "readings"]) { svg in
            for (lane, series) in PlotStyle.series.enumerated() {
                var d = ""
                var previousEnd: Double?
                for (column, bin) in perColumn {
                    let x = c(Self.left + Double(column) + 0.5)
                    let low = bin.minimum[lane]
                    let high = bin.maximum[lane]
                    let ordered = bin.minimumAt[lane] <= bin.maximumAt[lane] ? [low, high] : [high, low]
                    let values = low == high ? [low] : ordered
                    for (i, value) in values.enumerated() {
                        let starts = i == 0 && (previousEnd.map { bin.first - $0 > gap } ?? true)
                        // Pairs after a moveto are linetos, so only a break needs a letter.
                        d += (starts ? "M" : " ") + "\(x) \(c(readings(value)))"
                    }
                    previousEnd = bin.last
                }
                svg.element("path", ["id": "series-\(series.name)", "class": "series \(series.name)", "d": d])
            }
        }
    }
}

extension TracePlot {
    /// A decimator's bins gathered into the pixel columns they fall in, in time order.
    func columnBins<Values>(_ decimator: MinMaxDecimator<Values>, time: LinearScale)
        -> [(column: Int, bin: MinMaxDecimator<Values>.Bin)]
    {
        var perColumn: [(column: Int, bin: MinMaxDecimator<Values>.Bin)] = []
        for (_, bin) in decimator.bins {
            // Clamped as a Double: a trace whose times span more than Double's range maps to no finite pixel.
            let position = time(bin.first) - Self.left
            let column = position.isFinite ? Int(min(max(position, 0), Double(columns - 1))) : 0
            if let last = perColumn.indices.last, perColumn[last].column == column {
                perColumn[last].bin.absorb(bin)
            } else {
                perColumn.append((column, bin))
            }
        }
        return perColumn
    }
}
