import OrientCore

/// Runs the engine over samples in the sensor's frame, as `orientd classify` does, and records what a plot of
/// them shows: the readings as the classifier sees them, the commits and the motion gate.
struct TimelineRecorder {
    private var engine: OrientationEngine
    private var timeline: TraceTimeline
    /// When the motion gate closed, while it is closed.
    private var gatedSince: Double?

    /// - Parameter bins: how many time bins of readings to keep for drawing (about two per pixel column).
    init(engine: OrientationEngine, bins: Int) {
        self.engine = engine
        timeline = TraceTimeline(
            settings: engine.classifier.settings, initialDevice: engine.device, initialInterface: engine.interface,
            envelope: MinMaxDecimator(capacity: bins))
    }

    mutating func feed(_ sample: AccelSample) {
        let reading = engine.mountMatrix.apply(sample.acceleration)
        let change: OrientationEngine.Change?
        do {
            change = try engine.feedDeviceFrame(AccelSample(time: sample.time, acceleration: reading))
        } catch {
            // The trace parser already refuses what the classifier would (non-finite values, time that does not
            // increase); a sample the classifier refuses is not drawn either.
            return
        }
        let t = sample.time
        timeline.sampleCount += 1
        if timeline.first == nil { timeline.first = t }
        timeline.last = t
        timeline.envelope.add(time: t, values: SIMD4(reading.x, reading.y, reading.z, reading.length))
        if let change { timeline.changes.append(change) }

        switch (engine.classifier.isMotionGated, gatedSince) {
        case (true, nil): gatedSince = t
        case (false, let since?):
            timeline.gated.append(since...t)
            gatedSince = nil
        default: break
        }
    }

    /// The timeline so far, with a gated stretch that is still open ending at the last sample.
    var finished: TraceTimeline {
        var result = timeline
        if let gatedSince, let last = result.last { result.gated.append(gatedSince...last) }
        return result
    }
}
