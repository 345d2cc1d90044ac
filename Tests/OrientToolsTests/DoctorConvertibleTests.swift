import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientSensors
@testable import OrientTools
import Testing

/// What `orientd doctor` reports on a convertible from the events its source gives: a display and a base sensor
/// opened, readings of both, a scale learned. The whole path, under umockdev: ConvertibleToolsTests.
@Suite("orientd doctor on a convertible, from its source's events")
struct DoctorConvertibleTests {
    static let g = 9.80665
    static let scale = 0.0383072
    static let basePath = "/sys/devices/platform/base/iio:device0"
    /// The base sensor mounted upside down (turned 180° about x): its raw z reads +g when the keyboard lies on a
    /// desk. Read without this matrix, every hinge angle would be off by 180°.
    static let upsideDown = MountMatrix(x: Vector3(1, 0, 0), y: Vector3(0, -1, 0), z: Vector3(0, 0, -1))
    /// The base as doctor found it beside the display's, its location from udev.
    static let baseCandidate = AccelerometerCandidate(id: "iio:device0", path: basePath, name: "accel_3d", locationProperty: "base")

    /// The display's sensor iio:device1 and the base's iio:device0, upside down, as the live source opens them.
    static func opened(baseScale: Double = scale) -> SensorEvent {
        .opened(SensorDescription(
            id: "iio:device1", name: "accel_3d", mode: .polled, rate: 50, mountMatrixSource: .udevProperty,
            base: BaseSensorDescription(
                id: "iio:device0", name: "accel_3d", path: basePath, mountMatrix: upsideDown,
                mountMatrixSource: .udevProperty, scale: Vector3(baseScale, baseScale, baseScale))))
    }

    /// Two seconds at 50 Hz from `start`: the base on a desk, keys up (its raw reading, upside down), the display
    /// at `hinge`° from it; or both readings `held` (in the base's device frame).
    static func samples(hinge: Double = 135, held: Vector3? = nil, from start: Double = 0) -> [SensorEvent] {
        let base = held ?? Vector3(0, 0, -g)
        let display = held ?? HingeGeometry.display(fromBase: base, hingeAngle: hinge)
        return (0..<100).map { i in
            .sample(AccelSample(time: start + Double(i) / 50, acceleration: display, base: upsideDown.apply(base)))
        }
    }

    static func report(_ events: [SensorEvent]) -> DoctorReport {
        var report = DoctorReport()
        report.analyse(events, reason: "the display's", seconds: 2, baseCandidate: baseCandidate)
        return report
    }

    /// The report as `doctor --json` prints it, read back.
    static func json(_ report: DoctorReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: ToolJSON.encoder().encode(report)) as? [String: Any])
    }

    @Test("The base sensor, its matrix and where each came from, its reading, and θ with the posture: in --json and the text")
    func baseAndHinge() throws {
        let report = Self.report([Self.opened()] + Self.samples(hinge: 135))
        let json = try Self.json(report)
        #expect((json["sensor"] as? [String: Any])?["id"] as? String == "iio:device1")
        let base = try #require(json["base"] as? [String: Any])
        #expect(base["id"] as? String == "iio:device0")
        #expect(base["name"] as? String == "accel_3d")
        #expect(base["path"] as? String == Self.basePath)
        #expect(base["location"] as? String == "base")
        #expect(base["location-source"] as? String == "udev ACCEL_LOCATION")
        #expect(base["mount-matrix"] as? String == "1, 0, 0; 0, -1, 0; 0, 0, -1")
        #expect(base["mount-matrix-source"] as? String == "udev ACCEL_MOUNT_MATRIX")
        #expect(base["scale"] as? String == "from the device (0.0383072)")
        let reading = try #require(base["reading"] as? [String: Any])
        #expect((reading["z"] as? Double).map { $0 < -8 } == true, "gravity in the base's device frame: keys up")
        let hinge = try #require(json["hinge"] as? [String: Any])
        let angle = try #require(hinge["angle"] as? Double, "\(hinge)")
        #expect(abs(angle - 135) <= 1)
        #expect(hinge["posture"] as? String == "laptop")
        #expect(hinge["tablet-mode"] as? Bool == false)

        let text = report.text
        #expect(text.contains("\nBase sensor iio:device0 (accel_3d): the keyboard's, read with the display's\n"), "\(text)")
        #expect(text.contains("\n  mount matrix: 1, 0, 0; 0, -1, 0; 0, 0, -1 (from udev ACCEL_MOUNT_MATRIX)\n"))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Hinge angle: ") })
        let printed = try #require(Double(line.dropFirst("Hinge angle: ".count).prefix { $0 != "°" }), "\(line)")
        #expect(abs(printed - 135) <= 1)
        #expect(line.hasSuffix("° (posture laptop, tablet mode off)"), "\(line)")
    }

    @Test("A base's wrong scale learned: the correction shown beside the device's scale, a warning, and θ read through it")
    func baseWrongScale() throws {
        // Twice the scale of its raw values: at rest the base read 2 g until the source learned the correction.
        let learned = GravityCorrection(restMagnitude: 2 * Self.g, factor: 0.5, publishedScale: Vector3(2 * Self.scale, 2 * Self.scale, 2 * Self.scale))
        let display = HingeGeometry.display(fromBase: Vector3(0, 0, -Self.g), hingeAngle: 135)
        let beforeLearning = (0..<50).map { SensorEvent.sample(AccelSample(time: Double($0) / 50, acceleration: display)) }
        let report = Self.report(
            [Self.opened(baseScale: 2 * Self.scale)] + beforeLearning + [.baseGravityLearned(learned)] + Self.samples(from: 1))
        let json = try Self.json(report)
        let base = try #require(json["base"] as? [String: Any])
        #expect(abs((base["scale-correction"] as? Double ?? 0) - 0.5) < 0.01, "\(base)")
        #expect(base["scale"] as? String == "from the device (0.0766144), corrected ×0.5: readings at rest were 2 g", "\(base)")
        #expect((json["sensor"] as? [String: Any])?["scale-correction"] == nil, "the display's scale is right")
        let warnings = json["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("base accelerometer iio:device0: readings at rest are 2 g") }, "\(warnings)")
        let angle = try #require((json["hinge"] as? [String: Any])?["angle"] as? Double)
        #expect(abs(angle - 135) <= 1)

        let scaleLines = report.text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  scale: ") }
        #expect(scaleLines.count == 2 && scaleLines[1].contains("corrected ×0.5"), "\(report.text)")
        #expect(!scaleLines[0].contains("corrected"))
    }

    @Test("θ unknown with the hinge vertical: doctor says why, and the posture is unknown")
    func hingeVertical() throws {
        // Held like a book: gravity along the hinge (x) in both sensors.
        let report = Self.report([Self.opened()] + Self.samples(held: Vector3(Self.g, 0, 0)))
        let hinge = try #require(try Self.json(report)["hinge"] as? [String: Any])
        #expect(hinge["angle"] is NSNull)
        #expect((hinge["unknown-reason"] as? String)?.contains("hinge is held near vertical") == true, "\(hinge)")
        #expect(hinge["posture"] as? String == "unknown")
        #expect(report.text.contains("Hinge angle: unknown: gravity runs "), "\(report.text)")
    }

    @Test("A tablet's one sensor: one line says there is no base, and base and hinge are null in --json")
    func singleSensor() throws {
        let opened = SensorEvent.opened(SensorDescription(id: "iio:device0", name: "accel_3d", mode: .polled))
        let upright = (0..<100).map { SensorEvent.sample(AccelSample(time: Double($0) / 50, acceleration: Vector3(0, -Self.g, 0))) }
        var report = DoctorReport()
        report.analyse([opened] + upright, reason: "the only one", seconds: 2, baseCandidate: nil)
        #expect(report.text.split(separator: "\n").filter { $0.hasPrefix("Base sensor") }
            == ["Base sensor: none (no keyboard accelerometer: no hinge angle, posture or tablet mode)"], "\(report.text)")
        #expect(!report.text.contains("Hinge angle"))
        let json = try Self.json(report)
        #expect(json["base"] is NSNull && json["hinge"] is NSNull)
    }

    @Test("The tablet-mode switch: the machine's own named; without one, what a convertible misses and the setting that gives one")
    func tabletModeSwitch() throws {
        var without = Self.report([Self.opened()] + Self.samples())
        without.tabletMode = DoctorReport.TabletMode(switches: [])
        #expect(without.text.contains("\nTablet-mode switch: the machine has none of its own.\n"), "\(without.text)")
        #expect(without.text.contains("GNOME and KDE turn a convertible's screen only in tablet mode"))
        #expect(without.text.contains(
            "\n  tablet-mode-switch = auto (the default) decides: on (display and base accelerometers ("), "\(without.text)")

        var with = without
        with.tabletMode = DoctorReport.TabletMode(switches: [
            TabletModeSwitchDevice(name: "Intel Virtual Buttons", node: "/dev/input/event6", isOrientds: false),
            TabletModeSwitchDevice(name: "orientd tablet mode", node: "/dev/input/event9", isOrientds: true),
        ])
        #expect(with.text.contains(
            "\nTablet-mode switch: the machine's own, Intel Virtual Buttons (/dev/input/event6); GNOME and KDE follow it.\n"),
            "\(with.text)")
        #expect(with.text.contains("\n  orientd's own switch is there too: /dev/input/event9\n"))
        #expect(with.text.contains(
            "\n  tablet-mode-switch = auto (the default) decides: off (the machine has its own: Intel Virtual Buttons (/dev/input/event6))\n"),
            "\(with.text)")
        let switches = try #require((try Self.json(with)["tablet-mode"] as? [String: Any])?["switches"] as? [[String: Any]])
        #expect(switches.map { $0["node"] as? String } == ["/dev/input/event6", "/dev/input/event9"])
        #expect(switches.map { $0["is-orientds"] as? Bool } == [false, true])
    }
}
