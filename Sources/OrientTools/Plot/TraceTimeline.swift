import OrientCore

/// What a plot shows of a trace, gathered in one pass while the engine classifies every sample.
package struct TraceTimeline {
    /// A stretch of trace time with one value.
    struct Span<Value: Equatable>: Equatable {
        var start: Double
        var end: Double
        var value: Value
    }

    /// Classifier settings in use: the plot marks 1 g and breaks lines where the filter restarts.
    let settings: ClassifierSettings
    let initialDevice: DeviceOrientation
    let initialInterface: InterfaceOrientation
    var sampleCount = 0
    var first: Double?
    var last: Double?
    /// x, y, z and magnitude in the device frame, in m/s².
    var envelope: MinMaxDecimator<SIMD4<Double>>
    /// Every committed change, as `orientd classify` prints them.
    var changes: [OrientationEngine.Change] = []
    /// Stretches in which the motion gate held commits back, from the first gated sample to the first free one.
    var gated: [ClosedRange<Double>] = []
    /// The hinge angle, posture and tablet mode; `nil` for a trace of the display alone.
    var posture: PostureTimeline?

    /// The committed device orientation over the trace, one span per change.
    var deviceSpans: [Span<DeviceOrientation>] {
        spans(initial: initialDevice, changes: changes.map { ($0.time, $0.device) })
    }

    /// The interface orientation over the trace. A change that keeps it (face up, say) extends the span.
    var interfaceSpans: [Span<InterfaceOrientation>] {
        spans(initial: initialInterface, changes: changes.map { ($0.time, $0.interface ?? .unknown) })
    }

    /// The posture over a two-sensor trace (none for the display alone).
    var postureSpans: [Span<Posture>] {
        guard let posture else { return [] }
        return spans(initial: posture.initialPosture, changes: posture.postureChanges)
    }

    /// Tablet mode over a two-sensor trace (none for the display alone).
    var tabletModeSpans: [Span<TabletModeBand>] {
        guard let posture else { return [] }
        return spans(initial: TabletModeBand(posture.initialTabletMode), changes: posture.tabletModeChanges)
    }

    private func spans<Value: Equatable>(initial: Value, changes: [(time: Double, value: Value)]) -> [Span<Value>] {
        guard let first, let last else { return [] }
        var result: [Span<Value>] = []
        // The state before the first commit, when there was any time before it.
        if changes.first.map({ $0.time > first }) ?? true {
            result.append(Span(start: first, end: last, value: initial))
        }
        for change in changes {
            if let previous = result.indices.last {
                if result[previous].value == change.value { continue }
                result[previous].end = change.time
            }
            result.append(Span(start: change.time, end: last, value: change.value))
        }
        return result
    }
}
