import Foundation
import OrientCore
import OrientSampleSource
import OrientSensors
@testable import OrientTools
import Testing

@Suite("orientd doctor's reading of the events")
struct DoctorReportTests {
    private let g = 9.80665

    /// Two seconds at 50 Hz of `reading` (and `base`), after the sensor opened as `description`.
    private func events(_ description: SensorDescription, _ reading: Vector3, base: Vector3? = nil) -> [SensorEvent] {
        [.opened(description)]
            + (0..<100).map { .sample(AccelSample(time: Double($0) / 50, acceleration: reading, base: base)) }
    }

    @Test("A mirrored matrix is named with the one used, and the orientation comes through the repaired one")
    func mirroredMatrix() throws {
        // Left edge up is (+g, 0, 0) in the device frame; this mirror keeps x and y and flips z.
        let mirrored = try MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, -1")
        let description = SensorDescription(id: "iio:device0", name: "accel_3d", mode: .polled, mountMatrix: mirrored)
        var report = DoctorReport()
        report.analyse(events(description, Vector3(g, 0, 0)), reason: "the only one", seconds: 2, baseCandidate: nil)
        #expect(report.device == "landscape-right")
        #expect(report.interface == "landscape-left")
        #expect(report.warnings.contains { $0.hasPrefix("the mount matrix 1, 0, 0; 0, 1, 0; 0, 0, -1 is not a rotation") })
        #expect(report.sensor?.mirrored == true)
        #expect(report.sensor?.mountMatrixUsed == "1, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect(report.hinge == nil && report.base == nil, "a tablet: no hinge")
    }

    /// The report as `doctor --json` prints it, read back.
    private func json(_ report: DoctorReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: ToolJSON.encoder().encode(report)) as? [String: Any])
    }

    @Test("The panel found, or assumed, or set, in --json and the text; its natural orientation names the poses")
    func panel() throws {
        let eDP = PanelConnector(name: "card0-eDP-1", status: "connected\n", modes: "1920x1080\n")
        let upright = SensorDescription(id: "iio:device0", name: "accel_3d", mode: .polled)
        var laptop = DoctorReport(panel: PanelDetection.detect(connectors: [eDP], kernelCommandLine: nil))
        laptop.analyse(events(upright, Vector3(0, -g, 0)), reason: "the only one", seconds: 2, baseCandidate: nil)
        let panel = try #require(try json(laptop)["panel"] as? [String: Any])
        #expect(panel["natural-orientation"] as? String == "landscape")
        #expect(panel["source"] as? String == "panel")
        #expect(panel["connector"] as? String == "eDP-1" && panel["mode"] as? String == "1920x1080")
        #expect(laptop.device == "landscape-left" && laptop.interface == "landscape-right", "upright as installed")
        #expect(laptop.text.contains("\nNatural orientation: landscape (internal panel eDP-1, preferred mode 1920x1080)\n"))

        var none = DoctorReport(panel: PanelDetection.detect(connectors: [], kernelCommandLine: nil))
        none.analyse(events(upright, Vector3(0, -g, 0)), reason: "the only one", seconds: 2, baseCandidate: nil)
        #expect(none.text.contains("\nNatural orientation: portrait (assumed: no internal panel (eDP, LVDS or DSI connector) found)\n"))
        #expect(none.device == "portrait")
        let set = DoctorReport(panel: PanelDetection(natural: .portrait, source: .setting))
        #expect((try json(set)["panel"] as? [String: Any])?["source"] as? String == "setting")
    }

    @Test("The sensor used and why, its matrix and where from; a wrong scale learned: shown corrected, warned of once, and the readings before it not taken for the scale")
    func wrongScale() throws {
        // Sensor x is device -y (mirrored): x +g is portrait. The driver's scale is 10 times too large, so that the
        // readings are 26.1 g until 1 g is learned at rest.
        let matrix = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        let description = SensorDescription(
            id: "iio:device0", name: "accel_3d", mode: .polled, mountMatrix: matrix, mountMatrixSource: .udevProperty)
        let learned = GravityCorrection(restMagnitude: 256, factor: g / 256, publishedScale: Vector3(10, 10, 10))
        // Two seconds read at the wrong scale before 1 g is learned, then one corrected.
        let wrong = (0..<100).map { SensorEvent.sample(AccelSample(time: Double($0) / 50, acceleration: Vector3(256, 0, 0))) }
        let corrected = (100..<150).map { SensorEvent.sample(AccelSample(time: Double($0) / 50, acceleration: Vector3(g, 0, 0))) }
        var report = DoctorReport()
        report.analyse(
            [.opened(description)] + wrong + [.gravityLearned(learned)] + corrected, reason: "the only accelerometer",
            seconds: 3, baseCandidate: nil)
        let sensor = try #require(try json(report)["sensor"] as? [String: Any])
        #expect(abs((sensor["scale-correction"] as? Double ?? 0) - g / 256) < 1e-9)
        #expect(sensor["mount-matrix-source"] as? String == "udev ACCEL_MOUNT_MATRIX")
        #expect(report.device == "portrait")
        #expect(report.readings.last.map { abs($0.y + g) < 0.01 } == true, "gravity in the device frame")
        #expect(report.warnings.filter { $0.contains("26.1 g at the published scale 10; treating them as 1 g (correction ×0.0383)") }.count == 1)
        #expect(!report.warnings.contains { $0.contains("the scale looks wrong") }, "the corrected readings are 1 g")
        #expect(report.text.contains("\nUsing iio:device0 (accel_3d): the only accelerometer\n"))
        #expect(report.text.contains("\n  scale: from the device (10), corrected ×0.0383: readings at rest were 26.1 g\n"), "\(report.text)")
    }

    @Test("A convertible: θ from both sensors through the daemon's engine, and a singular base matrix named")
    func convertible() throws {
        let base = Vector3(0, 0, -g)
        let display = HingeGeometry.display(fromBase: base, hingeAngle: 110)
        let description = SensorDescription(
            id: "iio:device0", name: "display", mode: .polled, baseMountMatrix: .identity)
        var report = DoctorReport()
        report.analyse(events(description, display, base: base), reason: "display", seconds: 2, baseCandidate: nil)
        let angle = try #require(report.hinge?.angle)
        #expect(abs(angle - 110) < 1, "\(angle)")
        #expect(report.hinge?.posture == "laptop")
        #expect(report.hinge?.tabletMode == false)

        let singular = try MountMatrix(parsing: "1, 0, 0; 1, 0, 0; 0, 0, 1")
        var bad = DoctorReport()
        bad.analyse(
            events(SensorDescription(id: "iio:device0", name: "display", mode: .polled, baseMountMatrix: singular), display, base: base),
            reason: "display", seconds: 2, baseCandidate: nil)
        #expect(bad.warnings.contains { $0.contains("base sensor's mount matrix") && $0.contains("singular") })
    }

    @Test("The running daemon: its uptime, and each sensor's incidents once or counted; why it did not answer")
    func runningDaemon() {
        var report = DoctorReport()
        report.daemon = .init(socket: "/run/orientd/orientd.sock", uptime: 61.7, incidents: [
            .init(sensor: "accelerometer", count: 1, last: "iio:device0: buffered capture delivered nothing; polling instead", at: 3.5),
            .init(sensor: "light", count: 3, last: "resumed from sleep: opened again", at: 40),
        ])
        #expect(report.text.contains("""

            The daemon (/run/orientd/orientd.sock), up 61 s:
              accelerometer: once since it started; the last, at 3.5 s: iio:device0: buffered capture delivered nothing; polling instead
              light: 3 times since it started; the last, at 40.0 s: resumed from sleep: opened again

            """), "\(report.text)")
        report.daemon = .init(socket: "/x.sock", unreachable: "orientd is not running (cannot connect to /x.sock: No such file or directory)")
        #expect(report.text.contains("\nThe daemon: no answer: orientd is not running (cannot connect to /x.sock: No such file or directory)\n"))
        #expect(!report.text.contains("since it started"))
    }
}

@Suite("orientd doctor's reading of the light and proximity sensors")
struct DoctorReadingSensorsTests {
    private let als = ReadingSensorDescription(kind: .light, id: "iio:device1", name: "als", interval: 0.8, foundBy: "channel in_illuminance_raw")

    private func light(_ levels: [Double]) -> [ReadingEvent] {
        [.opened(als)] + levels.map { .reading(.light(level: $0, unit: .lux)) }
    }

    @Test("A light sensor whose level moves: first, last, minimum, maximum and distinct values, and no warning")
    func moving() throws {
        var report = DoctorReport()
        report.analyseReadings(light([50, 42, 61, 42]), kind: .light, seconds: 3)
        let sensor = try #require(report.readingSensors.first)
        #expect(sensor.id == "iio:device1" && sensor.name == "als" && sensor.readings == 4)
        #expect(sensor.light == DoctorReport.LightReadings(unit: "lux", first: 50, last: 42, minimum: 42, maximum: 61, distinct: 3))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.text.contains("Light sensor iio:device1 (als): found by channel in_illuminance_raw, read every 0.8 s"))
        #expect(report.text.contains("4 readings (lux): first 50.0, last 42.0, minimum 42.0, maximum 61.0, 3 distinct values"))
    }

    @Test("One value throughout may be a stuck sensor; 0 throughout is a covered one or a silent driver")
    func stuckAndZero() {
        var stuck = DoctorReport()
        stuck.analyseReadings(light([50, 50, 50]), kind: .light, seconds: 3)
        #expect(stuck.warnings == [
            "the light sensor als (iio:device1) read one value, 50.0 lux, throughout 3.0 s (3 readings): it may be stuck; wave a hand over it and run again"
        ])
        var zero = DoctorReport()
        zero.analyseReadings(light([0, 0, 0]), kind: .light, seconds: 3)
        #expect(zero.warnings == [
            "the light sensor als (iio:device1) read 0 lux throughout 3.0 s (3 readings): it is covered, or its driver never reports a level"
        ])
        var once = DoctorReport()
        once.analyseReadings(light([50]), kind: .light, seconds: 0.5)
        #expect(once.warnings.isEmpty, "one reading says nothing about being stuck")
        var silent = DoctorReport()
        silent.analyseReadings(light([]), kind: .light, seconds: 2)
        #expect(silent.warnings == ["the light sensor als (iio:device1) gave no reading in 2.0 s"])
        #expect(silent.readingSensors.first?.light?.first == nil)
    }

    @Test("A proximity sensor: its near level and near or far, from the last reading")
    func proximity() throws {
        let description = ReadingSensorDescription(
            kind: .proximity, id: "iio:device2", name: "prox", interval: 0.7, foundBy: "channel in_proximity_raw", details: [.nearLevel: 100])
        var report = DoctorReport()
        report.analyseReadings(
            [.opened(description), .reading(.proximity(near: false)), .reading(.proximity(near: true))], kind: .proximity, seconds: 2)
        let sensor = try #require(report.readingSensors.first)
        #expect(sensor.proximity == DoctorReport.ProximityReadings(nearLevel: 100, near: true, nearReadings: 1))
        #expect(sensor.light == nil)
        #expect(report.text.contains("near level 100.0: near (1 of 2 readings near)"))
    }

    @Test("doctor --json's reading sensors, byte for byte: each kind's own member, kebab-case keys, sorted")
    func readingSensorsJSON() throws {
        var report = DoctorReport()
        report.analyseReadings(light([50, 42]), kind: .light, seconds: 2)
        let proximity = ReadingSensorDescription(
            kind: .proximity, id: "iio:device2", name: "prox", interval: 0.7, foundBy: "channel in_proximity_raw", details: [.nearLevel: 100])
        report.analyseReadings([.opened(proximity), .reading(.proximity(near: true))], kind: .proximity, seconds: 2)
        let json = String(decoding: try ToolJSON.encoder().encode(report.readingSensors), as: UTF8.self)
        #expect(json == """
            [
              {
                "found-by" : "channel in_illuminance_raw",
                "id" : "iio:device1",
                "interval" : 0.8,
                "kind" : "light",
                "light" : {
                  "distinct" : 2,
                  "first" : 50,
                  "last" : 42,
                  "maximum" : 50,
                  "minimum" : 42,
                  "unit" : "lux"
                },
                "name" : "als",
                "readings" : 2
              },
              {
                "found-by" : "channel in_proximity_raw",
                "id" : "iio:device2",
                "interval" : 0.7,
                "kind" : "proximity",
                "name" : "prox",
                "proximity" : {
                  "near" : true,
                  "near-level" : 100,
                  "near-readings" : 1
                },
                "readings" : 1
              }
            ]
            """)
    }

    @Test("No sensor of a kind is said in one line; one that went away is warned about")
    func absentAndLost() {
        var report = DoctorReport()
        report.analyseReadings([.noSensor(reason: "no light sensor found")], kind: .light, seconds: 1)
        #expect(report.readingSensors.isEmpty && report.warnings.isEmpty)
        #expect(report.text.contains("Light sensor: none (no light sensor found)"))

        var lost = DoctorReport()
        lost.analyseReadings(light([10, 20]) + [.lost(reason: "iio:device1 was removed")], kind: .light, seconds: 1)
        #expect(lost.warnings == ["the light sensor als (iio:device1) went away: iio:device1 was removed"])
        #expect(lost.readingSensors.count == 1)
    }
}
