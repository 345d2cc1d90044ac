/// The whole engine for a device that may be a convertible: the display's orientation, and, when the device has
/// a base sensor or a kernel hinge sensor, the hinge angle and posture, with `rotate-in` applied between them.
///
/// Without either (or for samples that carry neither reading) it is exactly ``OrientationEngine``.
public struct ConvertibleEngine: Sendable {
    /// What one sample changed.
    public struct Update: Sendable, Equatable {
        /// The orientation change, when the device or interface orientation moved.
        public var orientation: OrientationEngine.Change?
        /// The posture, tablet mode or hinge angle change, when one moved.
        public var posture: PostureEngine.Change?
        /// The new tilt, when it changed (not counted by ``isEmpty``: it only feeds iio-sensor-proxy's property).
        public var tilt: AccelerometerTilt?
        /// On the engine's first sample only: what that reading shows alone (``OrientationEngine/firstGuess(deviceFrame:)``),
        /// which iio-sensor-proxy's property shows until the classifier commits. Not counted by ``isEmpty``.
        public var firstReading: DeviceOrientation?

        /// Whether neither the orientation nor the posture changed.
        public var isEmpty: Bool { orientation == nil && (posture?.isEmpty ?? true) }
    }

    public private(set) var orientation: OrientationEngine
    /// `nil` when the device has neither a base sensor nor a kernel hinge sensor.
    public private(set) var posture: PostureEngine?
    public let rotateIn: RotateIn
    /// The display's tilt at the last sample, as iio-sensor-proxy computes it; `undefined` before the first.
    public private(set) var tilt = AccelerometerTilt.undefined
    /// Whether a sample has been fed.
    private var hasRead = false

    /// - Parameter rotateIn: defaults to `tablet-mode` when there is a posture engine, `always` otherwise.
    public init(orientation: OrientationEngine, posture: PostureEngine?, rotateIn: RotateIn? = nil) {
        self.orientation = orientation
        self.posture = posture
        self.rotateIn = rotateIn ?? (posture == nil ? .always : .tabletMode)
    }

    /// Feeds one sample: the display reading in its sensor frame, and the base reading and hinge angle it has.
    public mutating func feed(_ sample: AccelSample) throws(ClassifierError) -> Update {
        var update = Update()
        let display = orientation.mountMatrix.apply(sample.acceleration)
        update.orientation = try orientation.feedDeviceFrame(
            AccelSample(time: sample.time, acceleration: display))
        updateTilt(sample.acceleration, display: display, &update)
        if !hasRead {
            hasRead = true
            update.firstReading = orientation.firstGuess(deviceFrame: display)
        }
        guard var engine = posture, sample.base != nil || sample.hinge != nil else { return update }
        // A base reading the posture side refuses must not lose the display's change just committed.
        guard let change = try? engine.feed(time: sample.time, display: display, base: sample.base, kernel: sample.hinge)
        else { return update }
        posture = engine
        if !change.isEmpty { update.posture = change }
        if case .some(let mode) = change.tabletMode, rotateIn == .tabletMode,
            let held = orientation.setHeldUpright(mode == false, time: sample.time)
        {
            update.orientation = held
        }
        return update
    }

    /// iio-sensor-proxy applies the mount matrix as given, so the tilt does too: where orientd repairs a mirrored one,
    /// its z would otherwise come out reversed from iio-sensor-proxy's.
    private mutating func updateTilt(_ reading: Vector3, display: Vector3, _ update: inout Update) {
        let given = orientation.repair.original
        let now = AccelerometerTilt(given == orientation.mountMatrix ? display : given.apply(reading))
        guard now != tilt else { return }
        tilt = now
        update.tilt = now
    }

    /// The base sensor or the hinge sensor went away (or its readings stopped): posture unknown, and the display
    /// alone turns the screen again, as on a tablet.
    public mutating func postureSensorLost(time: Double) -> Update {
        guard var engine = posture else { return Update() }
        var update = Update()
        let change = engine.reset(time: time)
        posture = engine
        if !change.isEmpty { update.posture = change }
        update.orientation = orientation.setHeldUpright(false, time: time)
        return update
    }

    /// The lid switch's state (SW_LID), when there is one.
    public mutating func setLidClosed(_ closed: Bool?) {
        posture?.setLidClosed(closed)
    }
}
