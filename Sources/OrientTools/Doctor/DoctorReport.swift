import Logging
import OrientCore
import OrientProtocol
import OrientSampleSource
import OrientSensors
import Synchronization

/// What `orientd doctor` found, for people (``text``) and machines (Codable).
package struct DoctorReport: Codable {
    struct Device: Codable {
        var id: String
        var name: String?
        var accelerometer: Bool
        var location: String?
    }

    struct Sensor: Codable {
        var id: String
        var name: String
        var reason: String
        var location: String
        var capture: String
        /// Why the sensor is polled rather than buffered, when it is.
        var pollingReason: String?
        var scale: String
        /// What readings are multiplied by (after the driver's scale, if any) because 1 g was learned at rest:
        /// the driver gives no scale, or readings at rest were far from 1 g at its scale.
        var scaleCorrection: Double?
        var rate: Double?
        var mountMatrix: String
        var mountMatrixSource: String
        var mirrored: Bool
        var singular: Bool
        /// The matrix orientd applies (z replaced by x × y when the given one is not a rotation).
        var mountMatrixUsed: String
    }

    /// A convertible's keyboard-base sensor, read with the display's.
    struct BaseSensor: Codable {
        var id: String
        var name: String
        var path: String?
        var location: String
        /// Where the location came from (udev ACCEL_LOCATION, the sysfs label or location).
        var locationSource: String
        var scale: String
        /// What its readings are multiplied by because 1 g was learned at rest, as for the display's sensor.
        var scaleCorrection: Double?
        var mountMatrix: String
        var mountMatrixSource: String
        var mirrored: Bool
        var singular: Bool
        var mountMatrixUsed: String
        /// The last base reading, gravity in the base's device frame.
        var reading: Reading?
    }

    /// The hinge angle θ and the posture it implies, from the readings of both sensors.
    struct Hinge: Codable {
        /// Degrees in [0, 360], to a tenth; `nil` when it cannot be read (``unknownReason`` says why).
        var angle: Double?
        var posture: String
        var tabletMode: Bool?
        var unknownReason: String?
        /// What the lid switch (SW_LID) says; `nil` when the device has none.
        var lidClosed: Bool?

        /// Every field, `null` included, as `status` sends a convertible's fields.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(angle, forKey: .angle)
            try c.encode(posture, forKey: .posture)
            try c.encode(tabletMode, forKey: .tabletMode)
            try c.encode(unknownReason, forKey: .unknownReason)
            try c.encode(lidClosed, forKey: .lidClosed)
        }
    }

    /// The internal panel and the natural orientation it gives (or the setting that named one).
    struct Panel: Codable {
        var naturalOrientation: String
        /// `setting`, `panel` or `assumed`.
        var source: String
        var connector: String?
        var mode: String?
        var mounting: String?
        /// Why portrait was assumed, when it was.
        var assumedBecause: String?

        init(_ detection: PanelDetection) {
            naturalOrientation = detection.natural.rawValue
            switch detection.source {
            case .setting: source = "setting"
            case .trace: source = "trace"
            case .panel(let connector, let width, let height, let mounting):
                source = "panel"
                self.connector = connector
                mode = "\(width)x\(height)"
                self.mounting = mounting?.rawValue
            case .assumed(let reason):
                source = "assumed"
                assumedBecause = reason
            }
        }
    }

    package struct Reading: Codable {
        /// Gravity in the device frame, m/s².
        var x: Double
        var y: Double
        var z: Double
        var magnitude: Double
    }

    var devices: [Device] = []
    var panel: Panel?
    /// What the engine names the panel's poses by.
    var natural: NaturalOrientation = .portrait
    var sensor: Sensor?
    /// The last readings, at most ten.
    package var readings: [Reading] = []
    var device: String = DeviceOrientation.unknown.rawValue
    var interface: String = InterfaceOrientation.unknown.rawValue
    var warnings: [String] = []
    /// `nil` on a tablet (and then said in one line).
    var base: BaseSensor?
    /// `nil` without a base sensor or a hinge sensor.
    var hinge: Hinge?
    /// The kernel hinge sensor (``DoctorReport/examineHingeSensor(udev:opened:)``); `nil` without one.
    var hingeSensor: HingeSensorFacts?
    /// The id of the hinge sensor the capture read beside the accelerometer.
    var hingeSensorRead: String?
    /// The light and proximity sensors and the compass, read while the accelerometer was.
    var readingSensors: [ReadingSensor] = []
    /// Why there is no light or proximity sensor, by kind (`light`, `proximity`).
    var missingReadingSensors: [String: String] = [:]
    /// What the running daemon said of its own sensors; nil when it was not asked.
    package var daemon: RunningDaemon?
    /// The tablet-mode switches the desktops read; nil when not looked for.
    var tabletMode: TabletMode?

    /// The running daemon as its `status` shows it: what each sensor ran into since it started (a buffer that gave
    /// nothing and was opened again or polled, a sensor that stopped reading, a resume).
    package struct RunningDaemon: Codable, Equatable, Sendable {
        var socket: String
        /// Why it did not answer (not running, permission denied); nil when it did.
        var unreachable: String?
        var uptime: Double?
        var incidents: [StatusReport.Incidents]

        package init(
            socket: String, unreachable: String? = nil, uptime: Double? = nil, incidents: [StatusReport.Incidents] = []
        ) {
            self.socket = socket
            self.unreachable = unreachable
            self.uptime = uptime
            self.incidents = incidents
        }
    }

    enum CodingKeys: String, CodingKey {
        case devices, panel, sensor, readings, device, interface, warnings, base, hinge, hingeSensor, readingSensors
        case missingReadingSensors
        case daemon, tabletMode
    }

    /// As synthesised, except that `base`, `hinge` and `hingeSensor` are `null` when absent rather than left out, so
    /// that "no base sensor" reads as such.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(devices, forKey: .devices)
        try c.encodeIfPresent(panel, forKey: .panel)
        try c.encodeIfPresent(sensor, forKey: .sensor)
        try c.encode(readings, forKey: .readings)
        try c.encode(device, forKey: .device)
        try c.encode(interface, forKey: .interface)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(readingSensors, forKey: .readingSensors)
        try c.encode(missingReadingSensors, forKey: .missingReadingSensors)
        try c.encodeIfPresent(daemon, forKey: .daemon)
        try c.encodeIfPresent(tabletMode, forKey: .tabletMode)
        if sensor != nil {
            try c.encode(base, forKey: .base)
            try c.encode(hinge, forKey: .hinge)
            try c.encode(hingeSensor, forKey: .hingeSensor)
        }
    }

    /// A report on the machine whose panel is `panel`: shown, and naming the poses.
    package init(panel: PanelDetection) {
        self.panel = Panel(panel)
        natural = panel.natural
    }

    /// A report with no panel shown, which names the poses as on a portrait one.
    init() {}

    package static func examine(
        device configured: String?, mountMatrixOverride: MountMatrix?, seconds: Double, panel: PanelDetection,
        udev: UdevHub
    ) async -> DoctorReport {
        var report = DoctorReport(panel: panel)
        // The light and proximity sensors are read for the same seconds, through the daemon's own sources, and
        // for that long even when there is no accelerometer to read.
        let end = ContinuousClock.now + .seconds(seconds)
        let readingCapture = await ReadingCapture.start(
            ReadingSources.all(udev: udev, logger: Logger(label: "orientd doctor")))
        await report.examineAccelerometer(
            device: configured, mountMatrixOverride: mountMatrixOverride, seconds: seconds, udev: udev)
        report.examineHingeSensor(udev: udev, opened: report.hingeSensorRead)
        report.examineTabletModeSwitches(udev: udev)
        try? await Task.sleep(until: end, clock: .continuous)
        for (kind, events) in await readingCapture.stop() {
            report.analyseReadings(events, kind: kind, seconds: seconds)
        }
        return report
    }

    private mutating func examineAccelerometer(
        device configured: String?, mountMatrixOverride: MountMatrix?, seconds: Double, udev: UdevHub
    ) async {
        let found: [IIODeviceSummary]
        do {
            found = try IIODiscovery.devices(udev: udev)
        } catch {
            warnings.append("cannot list IIO devices: \(error)")
            return
        }
        devices = found.map {
            Device(id: $0.id, name: $0.name, accelerometer: $0.accelerometer != nil,
                   location: $0.accelerometer?.location.rawValue)
        }
        let candidates = found.compactMap(\.accelerometer)
        guard case .chosen(let chosen, let reason) = SensorSelection.choose(from: candidates, configured: configured) else {
            if case .none(let reason) = SensorSelection.choose(from: candidates, configured: configured) {
                warnings.append(reason)
            }
            return
        }
        await read(
            chosen, reason: reason, override: mountMatrixOverride, seconds: seconds,
            baseCandidate: SensorSelection.base(from: candidates, display: chosen), udev: udev)
    }

    /// Reads the chosen sensor through the live source for `seconds`.
    private mutating func read(
        _ chosen: AccelerometerCandidate, reason: String, override: MountMatrix?, seconds: Double,
        baseCandidate: AccelerometerCandidate?, udev: UdevHub
    ) async {
        let source = IIOSampleSource(
            configuration: LiveSensorConfiguration(device: chosen.id), udev: udev, logger: Logger(label: "orientd doctor"))
        // Collect for `seconds`, then cancel: that ends the stream (and the capture thread) even when the
        // sensor is silent.
        let events = source.events()
        // The configuration's matrix wins over the sensor's, as the daemon's engine has it.
        let withOverride = { (event: SensorEvent) -> SensorEvent in
            guard case .opened(let description) = event else { return event }
            return .opened(description.overridingMountMatrix(override))
        }
        let collector = Task<[SensorEvent], Never> {
            var collected: [SensorEvent] = []
            for await event in events { collected.append(withOverride(event)) }
            return collected
        }
        try? await Task.sleep(for: .seconds(seconds))
        collector.cancel()
        analyse(await collector.value, reason: reason, seconds: seconds, baseCandidate: baseCandidate)
    }

    /// What the events of `seconds` of reading say, through the daemon's own engine (``EngineConfiguration``).
    package mutating func analyse(
        _ events: [SensorEvent], reason: String, seconds: Double, baseCandidate: AccelerometerCandidate?
    ) {
        var modes: [SensorDescription.CaptureMode] = []
        var engine: ConvertibleEngine?
        var samples: [AccelSample] = []
        var opened: SensorDescription?
        /// What was learned; the source keeps using it when it opens the sensor again (polling after a stall).
        var correction: GravityCorrection?
        var baseCorrection: GravityCorrection?
        /// Samples before a wrong scale was corrected do not say what the sensor reads now.
        var correctedFrom = 0
        var lidClosed: Bool?
        var pairs = 0
        for event in events {
            switch event {
            case .opened(let description):
                modes.append(description.mode)
                opened = description
                describe(description, reason: reason)
                if let correction { describe(correction) }
                describeBase(description.base, candidate: baseCandidate)
                hingeSensorRead = description.hinge?.id
                if let baseCorrection { describeBase(baseCorrection) }
                var configuration = EngineConfiguration()
                configuration.natural = natural
                engine = try? configuration.makeEngine(
                    displayMatrix: description.mountMatrix, baseMatrix: description.base?.mountMatrix,
                    hasHinge: description.hinge != nil)
                engine?.setLidClosed(lidClosed)
            case .gravityLearned(let learned):
                correction = learned
                correctedFrom = samples.count
                describe(learned)
                if learned.publishedScale != nil { warnings.append(learned.explanation(device: opened?.displayName ?? "the sensor")) }
            case .baseGravityLearned(let learned):
                baseCorrection = learned
                describeBase(learned)
                if learned.publishedScale != nil {
                    warnings.append(learned.explanation(device: "base accelerometer" + (opened?.base.map { " \($0.id)" } ?? "")))
                }
            case .sample(let sample):
                samples.append(sample)
                if let change = (try? engine?.feed(sample))?.orientation {
                    device = change.device.rawValue
                    interface = (change.interface ?? .unknown).rawValue
                }
                if sample.base != nil || sample.hinge?.degrees != nil { pairs += 1 }
            case .lid(let closed):
                lidClosed = closed
                engine?.setLidClosed(closed)
            case .baseLost(let why):
                warnings.append("the base sensor went away: \(why)")
            case .hingeLost(let why):
                warnings.append("the hinge sensor went away: \(why)")
            case .lost(let why):
                warnings.append("the sensor went away: \(why)")
            case .noSensor(let why):
                warnings.append(why)
            case .incident(let what):
                warnings.append(what)
            case .sourceEnded:
                break
            }
        }
        guard let engine else { return }
        let matrix = engine.orientation.mountMatrix
        if let posture = engine.posture {
            readHinge(
                posture, pairs: pairs, lastBase: samples.last(where: { $0.base != nil })?.base, lidClosed: lidClosed,
                kernel: hingeSensorRead != nil)
        }
        readings = samples.suffix(10).map { sample in
            let g = matrix.apply(sample.acceleration)
            return Reading(x: g.x, y: g.y, z: g.z, magnitude: g.length)
        }
        if samples.isEmpty {
            warnings.append("no readings in \(seconds) s")
        } else {
            let magnitudes = samples[min(correctedFrom, samples.count - 1)...].map { $0.acceleration.length }.sorted()
            let median = magnitudes[magnitudes.count / 2]
            if abs(median - 9.80665) > 1.5 {
                warnings.append("readings are \(Self.format(median)) m/s² at rest, far from 1 g (9.81): the scale looks wrong")
            }
        }
    }

    private mutating func describe(_ description: SensorDescription, reason: String) {
        let matrix = MatrixFacts(description.mountMatrix)
        sensor = Sensor(
            id: description.id, name: description.name, reason: reason, location: description.location.rawValue,
            capture: description.mode.rawValue, pollingReason: description.pollingReason,
            scale: description.scaleSource == .learned ? "learned from readings at rest (the driver gives none)" : "from the device",
            rate: description.rate, mountMatrix: description.mountMatrix.text,
            mountMatrixSource: description.mountMatrixSource.description,
            mirrored: matrix.mirrored, singular: matrix.singular, mountMatrixUsed: matrix.used)
        if description.mode == .polled, let why = description.pollingReason, why.hasPrefix("buffered capture needs") {
            warnings.append("polling: \(why)")
        }
        if let warning = matrix.warning(
            "the mount matrix", singular: "fix it with a hwdb quirk or mount-matrix", mirrored: "face up and down would swap")
        {
            warnings.append(warning)
        }
    }

    private mutating func describeBase(_ description: BaseSensorDescription?, candidate: AccelerometerCandidate?) {
        guard let description else {
            base = nil
            return
        }
        let matrix = MatrixFacts(description.mountMatrix)
        let scale = description.scale.map { scale in
            let text = scale.x == scale.y && scale.y == scale.z ? "\(scale.x)" : "\(scale.x), \(scale.y), \(scale.z)"
            return "from the device (\(text))"
        } ?? "learned from readings at rest (the driver gives none)"
        base = BaseSensor(
            id: description.id, name: description.name, path: description.path, location: SensorDescription.Location.base.rawValue,
            locationSource: candidate?.id == description.id ? candidate!.locationSource : "unknown", scale: scale,
            mountMatrix: description.mountMatrix.text, mountMatrixSource: description.mountMatrixSource.description,
            mirrored: matrix.mirrored, singular: matrix.singular, mountMatrixUsed: matrix.used)
        if let warning = matrix.warning("the base sensor's mount matrix", singular: "no hinge angle can be read", mirrored: nil) {
            warnings.append(warning)
        }
    }

    /// θ and the posture after the pairs of readings, through the daemon's own estimator (filtered, gated for motion,
    /// the wrap at 0°/360° decided by continuity), and why θ is unknown when it is.
    private mutating func readHinge(_ engine: PostureEngine, pairs: Int, lastBase: Vector3?, lidClosed: Bool?, kernel: Bool) {
        var hinge = Hinge(
            angle: engine.hingeAngle.map { ($0 * 10).rounded() / 10 }, posture: engine.posture.rawValue,
            tabletMode: engine.tabletMode, lidClosed: lidClosed)
        if let last = lastBase {
            let g = engine.baseMountMatrix.apply(last)
            base?.reading = Reading(x: g.x, y: g.y, z: g.z, magnitude: g.length)
        }
        if kernel, hinge.angle == nil {
            hinge.unknownReason = "the hinge sensor gave no angle (see below)"
        } else if pairs == 0 {
            hinge.unknownReason = "no base readings (its reads failed, or its scale was still being learned)"
        } else if hinge.angle == nil {
            let estimator = engine.estimator
            let elevation = min(
                HingeGeometry.elevationFromHinge(estimator.filteredDisplay), HingeGeometry.elevationFromHinge(estimator.filteredBase))
            hinge.unknownReason =
                elevation < estimator.settings.hingeReadableAngle
                ? "gravity runs \(Self.format(elevation))° from the hinge (it must be \(Self.format(estimator.settings.hingeReadableAngle))° or more): the hinge is held near vertical; lay the device down or hold it in landscape"
                : "the device moved while it was read (readings far from 1 g): keep it still"
        }
        self.hinge = hinge
    }

    /// The scale line once 1 g has been learned.
    private mutating func describe(_ correction: GravityCorrection) {
        sensor?.scaleCorrection = correction.factor
        sensor?.scale = Self.scaleLine(correction)
    }

    private mutating func describeBase(_ correction: GravityCorrection) {
        base?.scaleCorrection = correction.factor
        base?.scale = Self.scaleLine(correction)
    }

    private static func scaleLine(_ correction: GravityCorrection) -> String {
        let factor = "×\(GravityCorrection.format(correction.factor))"
        guard let published = correction.publishedScaleText else {
            return "learned from readings at rest (the driver gives none): \(factor)"
        }
        let rest = GravityCorrection.format(correction.restMagnitude / GravityCalibrator.standardGravity)
        return "from the device (\(published)), corrected \(factor): readings at rest were \(rest) g"
    }

    package var text: String {
        var lines = ["IIO devices:"]
        if devices.isEmpty { lines.append("  none") }
        for device in devices {
            let kind = device.accelerometer ? "accelerometer, location \(device.location ?? "display")" : "not an accelerometer"
            lines.append("  \(device.id)  \(device.name ?? "(no name)")  \(kind)")
        }
        if let panel {
            lines.append("")
            lines.append("Natural orientation: \(panel.naturalOrientation) (\(Self.panelSource(panel)))")
        }
        if let sensor {
            lines.append("")
            lines.append("Using \(sensor.id) (\(sensor.name)): \(sensor.reason)")
            lines.append("  location: \(sensor.location)")
            lines.append("  capture: \(sensor.capture)\(sensor.pollingReason.map { " (\($0))" } ?? "")")
            lines.append("  scale: \(sensor.scale)")
            lines.append("  rate: \(sensor.rate.map { "\(Self.format($0)) Hz" } ?? "unknown")")
            lines.append("  mount matrix: \(sensor.mountMatrix) (from \(sensor.mountMatrixSource))")
            if sensor.mountMatrixUsed != sensor.mountMatrix { lines.append("  used as: \(sensor.mountMatrixUsed) (z = x × y)") }
        }
        if let base {
            lines.append("")
            lines.append("Base sensor \(base.id) (\(base.name)): the keyboard's, read with the display's")
            if let path = base.path { lines.append("  path: \(path)") }
            lines.append("  location: \(base.location) (from \(base.locationSource))")
            lines.append("  scale: \(base.scale)")
            lines.append("  mount matrix: \(base.mountMatrix) (from \(base.mountMatrixSource))")
            if base.mountMatrixUsed != base.mountMatrix { lines.append("  used as: \(base.mountMatrixUsed) (z = x × y)") }
        } else if sensor != nil, hingeSensor != nil {
            lines.append("")
            lines.append("Base sensor: none (the hinge sensor below gives the hinge angle)")
        } else if sensor != nil {
            lines.append("")
            lines.append("Base sensor: none (no keyboard accelerometer: no hinge angle, posture or tablet mode)")
        }
        lines += hingeSensorLines
        if !readings.isEmpty {
            lines.append("")
            lines.append("Readings (gravity in the device frame, m/s²):")
            for r in readings {
                lines.append("  (\(Self.format(r.x)), \(Self.format(r.y)), \(Self.format(r.z)))  |g| \(Self.format(r.magnitude))")
            }
            if let r = base?.reading {
                lines.append("Base (gravity in its device frame): (\(Self.format(r.x)), \(Self.format(r.y)), \(Self.format(r.z)))  |g| \(Self.format(r.magnitude))")
            }
            lines.append("Orientation: \(device) (interface \(interface))")
        }
        if let hinge {
            let tabletMode = hinge.tabletMode.map { $0 ? "on" : "off" } ?? "unknown"
            let lid = hinge.lidClosed.map { $0 ? ", lid switch shut" : ", lid switch open" } ?? ""
            if let angle = hinge.angle {
                lines.append("Hinge angle: \(Self.format(angle))° (posture \(hinge.posture), tablet mode \(tabletMode)\(lid))")
            } else {
                lines.append("Hinge angle: unknown: \(hinge.unknownReason ?? "?") (posture \(hinge.posture), tablet mode \(tabletMode)\(lid))")
            }
        }
        lines += tabletModeLines
        lines += readingSensorLines
        lines += daemonLines
        lines.append("")
        lines.append(warnings.isEmpty ? "No warnings." : "Warnings:")
        for warning in warnings { lines.append("  - \(warning)") }
        return lines.joined(separator: "\n")
    }

    /// What the running daemon's sensors ran into since it started, or why it could not be asked.
    private var daemonLines: [String] {
        guard let daemon else { return [] }
        guard daemon.unreachable == nil, let uptime = daemon.uptime else {
            return ["", "The daemon: no answer: \(daemon.unreachable ?? "none")"]
        }
        var lines = ["", "The daemon (\(daemon.socket)), up \(Int(uptime)) s:"]
        if daemon.incidents.isEmpty { lines.append("  its sensors have run into nothing since it started") }
        for incidents in daemon.incidents {
            let count = incidents.count == 1 ? "once" : "\(incidents.count) times"
            lines.append("  \(incidents.sensor): \(count) since it started; the last, at \(Self.format(incidents.at)) s: \(incidents.last)")
        }
        return lines
    }

    private static func panelSource(_ panel: Panel) -> String {
        switch panel.source {
        case "panel":
            let mounting = panel.mounting.map { ", mounted \($0) (kernel command line)" } ?? ""
            return "internal panel \(panel.connector ?? "?"), preferred mode \(panel.mode ?? "?")\(mounting)"
        case "assumed": return "assumed: \(panel.assumedBecause ?? "?")"
        default: return "set by natural-orientation"
        }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded == 0 ? 0 : rounded)  // no "-0.0"
    }
}

/// Every light and proximity sensor's events from ``start(_:)`` to ``stop()``.
private struct ReadingCapture {
    private final class Events: Sendable {
        let list = Mutex<[ReadingEvent]>([])
    }

    private let running: [(kind: SensorKind, events: Events, handle: CaptureHandle)]

    /// Starts the sources one after another, each once the one before has said what it found (for at most a
    /// second): under umockdev, udev monitors enabled at the same moment fail now and then
    /// (`udev_monitor_enable_receiving failed: Invalid argument`).
    static func start(_ sources: [any ReadingSource]) async -> ReadingCapture {
        var running: [(kind: SensorKind, events: Events, handle: CaptureHandle)] = []
        for source in sources {
            let events = Events()
            running.append((source.kind, events, source.start { event in events.list.withLock { $0.append(event) } }))
            let deadline = ContinuousClock.now + .seconds(1)
            while events.list.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return ReadingCapture(running: running)
    }

    /// Stops every source and gives what each delivered, in order.
    func stop() async -> [(kind: SensorKind, events: [ReadingEvent])] {
        var collected: [(kind: SensorKind, events: [ReadingEvent])] = []
        for source in running {
            await source.handle.stop()
            collected.append((source.kind, source.events.list.withLock { $0 }))
        }
        return collected
    }
}

/// What both sensors' sections say about a mount matrix: whether the repair undid a mirror, whether it is
/// singular, the matrix used, and the warning when the one given is not a rotation.
private struct MatrixFacts {
    let given: MountMatrix
    let repair: HandednessRepair

    init(_ matrix: MountMatrix) {
        given = matrix
        repair = matrix.repairingHandedness()
    }

    var mirrored: Bool { repair.repairedMirror }
    var singular: Bool { repair.isSingular }
    var used: String { repair.inUse.text }

    /// - Parameters:
    ///   - subject: what the sentence is about ("the mount matrix").
    ///   - singular: what follows when it is singular.
    ///   - mirrored: what a mirror image would do, if worth saying.
    func warning(_ subject: String, singular consequence: String, mirrored effect: String?) -> String? {
        if repair.isSingular { return "\(subject) \(given) is singular (x and y rows parallel): \(consequence)" }
        guard repair.changed else { return nil }
        return "\(subject) \(given) is not a rotation\(effect.map { " (\($0))" } ?? ""); orientd uses \(repair.repaired)"
    }
}
