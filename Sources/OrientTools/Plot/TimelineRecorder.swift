import OrientCore

/// Runs the engine over samples in the sensor's frame, as `orientd classify` does, and records what a plot of
/// them shows: the readings as the classifier sees them, the commits and the motion gate, and for a two-sensor
/// trace the hinge angle, posture and tablet mode.
package struct TimelineRecorder {
    private var engine: ConvertibleEngine
    private var timeline: TraceTimeline
    /// When the motion gate closed, while it is closed.
    private var gatedSince: Double?

    /// - Parameter bins: how many time bins of readings to keep for drawing (about two per pixel column).
    package init(engine: ConvertibleEngine, bins: Int) {
        self.engine = engine
        let orientation = engine.orientation
        timeline = TraceTimeline(
            settings: orientation.classifier.settings, initialDevice: orientation.device,
            initialInterface: orientation.interface ?? .unknown, envelope: MinMaxDecimator(capacity: bins))
        if let posture = engine.posture {
            timeline.posture = PostureTimeline(engine: posture, rotateIn: engine.rotateIn, bins: bins)
        }
    }

    package mutating func feed(_ sample: AccelSample) {
        let reading = engine.orientation.mountMatrix.apply(sample.acceleration)
        let update: ConvertibleEngine.Update
        do {
            update = try engine.feed(sample)
        } catch {
            // The trace parser already refuses what the engine would (non-finite values, time that does not
            // increase); a sample the engine refuses is not drawn either.
            return
        }
        let t = sample.time
        timeline.sampleCount += 1
        if timeline.first == nil { timeline.first = t }
        timeline.last = t
        timeline.envelope.add(time: t, values: SIMD4(reading.x, reading.y, reading.z, reading.length))
        if let change = update.orientation { timeline.changes.append(change) }
        timeline.posture?.record(time: t, angle: engine.posture?.hingeAngle, change: update.posture)

        switch (engine.orientation.classifier.isMotionGated, gatedSince) {
        case (true, nil): gatedSince = t
        case (false, let since?):
            timeline.gated.append(since...t)
            gatedSince = nil
        default: break
        }
    }

    /// The timeline so far, with a gated stretch that is still open ending at the last sample.
    package var finished: TraceTimeline {
        var result = timeline
        if let gatedSince, let last = result.last { result.gated.append(gatedSince...last) }
        result.posture = result.posture?.finished(at: result.last)
        return result
    }
}
