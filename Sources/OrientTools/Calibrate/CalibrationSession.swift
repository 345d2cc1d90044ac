import Logging
import OrientCore
import OrientPosix
import OrientSampleSource
import OrientSensors
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The guided session of `orientd calibrate`: finds the sensors, takes the three poses, works out the matrices,
/// and writes the hwdb quirk.
///
/// Nothing is written before the last pose is taken and checked: Ctrl-C, or a sensor going away, before then leaves
/// every file as it was. The write itself replaces the file atomically.
public enum CalibrationSession {
    public static func run(
        _ request: CalibrateRequest, _ environment: CalibrateEnvironment
    ) async throws(CalibrateFailure)
        -> CalibrationReport
    {
        // The session's one view of udev: it finds the sensors, and follows them while it reads.
        let udev = UdevHub()
        return try await run(request, environment, on: try .live(request, udev: udev, environment: environment))
    }

    /// The session on `machine`'s sensors, sources and terminal.
    static func run<Source: SampleSource>(
        _ request: CalibrateRequest, _ environment: CalibrateEnvironment, on machine: CalibrationMachine<Source>
    ) async throws(CalibrateFailure)
        -> CalibrationReport
    {
        let sensors = machine.sensors
        let say = environment.say
        var notes: [String] = []
        var matches: (display: HwdbMatch?, base: HwdbMatch?) = (nil, nil)
        do {
            matches = try sensors.matches(dmi: machine.dmiModalias, parentModalias: machine.parentModalias)
        } catch {
            guard !request.writes else {
                throw .unavailable("cannot build the hwdb match line: \(error); --no-write measures the matrix anyway")
            }
            notes.append("no hwdb match line: \(error)")
        }
        if request.writes, let base = matches.base, base == matches.display {
            throw .unavailable(
                "the display and base sensors have the same parent modalias, so one hwdb match would fit both; set "
                    + "their matrices with a udev rule matching each DEVPATH instead (--no-write measures them)")
        }

        let interrupted = Mutex<Int32?>(nil)
        let (signals, relay) = AsyncStream.makeStream(of: Int32.self)
        let watcher = Task {
            for await signal in environment.signals {
                interrupted.withLock { $0 = signal }
                relay.yield(signal)
            }
        }
        defer { watcher.cancel() }
        let inputs = CalibrationInput.merged(
            display: machine.display, base: machine.base, signals: signals, readsEnter: environment.readsEnter,
            readLines: machine.readLines)

        let base = sensors.base.map { " and the base sensor \($0.name ?? $0.id) (\($0.id))" } ?? ""
        say("Calibrating \(sensors.display.name ?? sensors.display.id) (\(sensors.display.id))\(base).")
        say(
            "Each pose is taken once you have moved the device into it and it has been still for a second"
                + (environment.readsEnter ? "; Enter takes it at once." : "."))
        var poses = PoseSequence(convertible: sensors.base != nil, readsEnter: environment.readsEnter)
        say(poses.instruction)
        var descriptions: (display: SensorDescription?, base: SensorDescription?) = (nil, nil)
        loop: for await input in inputs {
            switch input {
            case .interrupted(let signal):
                throw .interrupted(signal)
            case .enter:
                if poses.enter(say: say) { break loop }
            case .display(let event):
                switch event {
                case .opened(let description) where descriptions.display == nil:
                    descriptions.display = description
                    say("Reading \(description.displayName): mount matrix now \(description.mountMatrix) (from \(description.mountMatrixSource)).")
                case .sample(let sample):
                    if poses.display(sample, say: say) { break loop }
                case .gravityLearned(let correction):
                    say(correction.explanation(device: descriptions.display?.displayName ?? sensors.display.id))
                case .noSensor(let reason) where descriptions.display == nil:
                    throw .noSensor("cannot read \(sensors.display.id): \(reason)")
                case .lost(let reason), .noSensor(let reason):
                    throw .unavailable("the display sensor went away (\(reason)): nothing was written")
                case .opened, .baseGravityLearned, .baseLost, .hingeLost, .lid, .incident, .sourceEnded:
                    break
                }
            case .base(let event):
                switch event {
                case .opened(let description) where descriptions.base == nil:
                    descriptions.base = description
                    say("Reading the base sensor \(description.displayName): mount matrix now \(description.mountMatrix) (from \(description.mountMatrixSource)).")
                case .sample(let sample):
                    poses.base(sample)
                case .gravityLearned(let correction):
                    say(correction.explanation(device: "base accelerometer " + (descriptions.base?.displayName ?? "")))
                case .noSensor(let reason) where descriptions.base == nil:
                    throw .noSensor("cannot read the base sensor \(sensors.base?.id ?? ""): \(reason)")
                case .lost(let reason), .noSensor(let reason):
                    throw .unavailable("the base sensor went away (\(reason)): nothing was written")
                case .opened, .baseGravityLearned, .baseLost, .hingeLost, .lid, .incident, .sourceEnded:
                    break
                }
            }
        }
        if let signal = interrupted.withLock({ $0 }) { throw .interrupted(signal) }
        guard poses.isComplete, let displayDescription = descriptions.display else {
            throw .unavailable("the sensors stopped before the poses were taken: nothing was written")
        }

        let results = try poses.results()
        var report = CalibrationReport(
            display: sensorReport(
                results.display, plan: poses.plan, description: displayDescription.mountMatrix,
                source: displayDescription.mountMatrixSource,
                candidate: sensors.display, match: matches.display, isBase: false),
            base: nil, poses: poses.report, hwdbFile: request.hwdbFile, written: false, hwdbUpdated: false, notes: notes
        )
        var blocks: [HwdbBlock] = []
        if let match = matches.display, !report.display.alreadyRight {
            blocks.append(
                HwdbBlock(
                    match: match, mountMatrix: results.display.matrix, isBase: false,
                    sensorName: sensors.display.name ?? sensors.display.id))
        }
        if let baseResult = results.base, let baseCandidate = sensors.base {
            let description = descriptions.base
            report.base = sensorReport(
                baseResult, plan: poses.plan, description: description?.mountMatrix ?? .identity,
                source: description?.mountMatrixSource ?? .identity,
                candidate: baseCandidate, match: matches.base, isBase: true)
            if let match = matches.base, report.base?.alreadyRight == false {
                blocks.append(
                    HwdbBlock(
                        match: match, mountMatrix: baseResult.matrix, isBase: true,
                        sensorName: baseCandidate.name ?? baseCandidate.id))
            }
        }
        guard request.writes, !blocks.isEmpty else { return report }
        if let signal = interrupted.withLock({ $0 }) { throw .interrupted(signal) }
        try write(blocks, to: request.hwdbFile, environment)
        report.written = true
        say("wrote \(request.hwdbFile)")
        if request.updatesSystem {
            report.hwdbUpdated = HwdbUpdate.run(
                devices: [sensors.display.path] + (sensors.base.map { [$0.path] } ?? []), say: say)
            if !report.hwdbUpdated {
                report.notes.append("run `systemd-hwdb update && udevadm trigger -s iio` (as root) to load it")
            }
        } else {
            report.notes.append(
                "\(request.hwdbFile) is not the system's local hwdb file: copy it to "
                    + "\(CalibrateRequest.defaultHwdbFile), then run `systemd-hwdb update && udevadm trigger -s iio`")
        }
        return report
    }

    private static func sensorReport(
        _ result: SensorCalibration, plan: [CalibrationPose], description current: MountMatrix,
        source: SensorDescription.MatrixSource,
        candidate: AccelerometerCandidate, match: HwdbMatch?, isBase: Bool
    ) -> CalibrationReport.Sensor {
        // Right for every reader, not only for orientd (which repairs a mirrored z row).
        let matrixRight = current.isRotation() && current.degrees(from: result.matrix) <= 1
        let locationRight = !isBase || candidate.location == .base
        let verdict: String
        switch (matrixRight, locationRight) {
        case (true, true): verdict = "already right"
        case (true, false): verdict = "right, but the sensor is not marked as the base's (ACCEL_LOCATION)"
        case (false, _)
        where current.repairingHandedness().repaired.degrees(from: result.matrix) <= 1
            && current.repairingHandedness().isApplied:
            verdict = "a mirror image: orientd repairs it, other readers swap face up and face down"
        case (false, _): verdict = "wrong"
        }
        let alreadyRight = matrixRight && locationRight
        let block = match.map {
            HwdbBlock(match: $0, mountMatrix: result.matrix, isBase: isBase, sensorName: candidate.name ?? candidate.id)
        }
        return CalibrationReport.Sensor(
            id: candidate.id, name: candidate.name ?? candidate.id, location: isBase ? "base" : "display",
            mountMatrix: result.matrix.text, measured: result.measured.text, snapped: result.snapped,
            degreesFromAxes: (result.degreesFromAxes * 100).rounded() / 100,
            checks: result.checks.map { check in
                CalibrationReport.Check(
                    pose: (plan.firstIndex(of: check.pose) ?? 0) + 1,
                    reading: [check.reading.x, check.reading.y, check.reading.z].map { ($0 * 1000).rounded() / 1000 },
                    error: (check.error * 100).rounded() / 100)
            },
            inUse: current.text, inUseSource: source.description,
            alreadyRight: alreadyRight, verdict: verdict, match: match?.line, hwdb: alreadyRight ? nil : block?.record)
    }

    /// Puts the blocks into the file, atomically; the directory is created when missing (a fresh system has no
    /// /etc/udev/hwdb.d).
    private static func write(
        _ blocks: [HwdbBlock], to path: String, _ environment: CalibrateEnvironment
    ) throws(CalibrateFailure) {
        let existing: String?
        do {
            existing = try environment.readFile(path)
        } catch {
            throw .cannotRead("\(path): cannot read: \(error); nothing was written")
        }
        if existing == nil, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            if mkdir(directory, 0o755) != 0, errno != EEXIST {
                throw .cannotWrite(
                    "\(directory): cannot create: \(String(cString: strerror(errno))); nothing was written")
            }
        }
        do {
            try environment.writeFile(HwdbFileEdit.applying(blocks, to: existing), path)
        } catch {
            throw .cannotWrite("\(error); \(path) is as it was")
        }
    }
}
