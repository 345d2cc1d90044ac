import Foundation
import Testing

/// `orientd doctor` reading emulated light and proximity sensors (umockdev) beside the accelerometer, through the
/// daemon's own reading sources.
@Suite(
    "orientd doctor's light and proximity sensors under umockdev", .serialized,
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct DoctorReadingSensorsTests {
    /// An accelerometer, and a light sensor whose raw level is 100 at scale 0.5 (50 lux) until a test moves it.
    private func testbed() throws -> (UmockdevTestbed, light: String) {
        let testbed = try UmockdevTestbed()
        _ = try testbed.addDevice(
            "iio:device0", attributes: LiveSensorTests.portraitAttributes, properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        let light = try testbed.addDevice(
            "iio:device1", attributes: LightSensorTests.lightAttributes, properties: LightSensorTests.lightProperties)
        return (testbed, light)
    }

    private func parse(_ output: OrientdProcess.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stderr)")
    }

    /// The light sensor's readings in `report`; a sensor missing is failed with the reason doctor gives.
    private func light(in report: [String: Any]) throws -> [String: Any] {
        let sensors = report["reading-sensors"] as? [[String: Any]] ?? []
        let light = try #require(sensors.first { $0["kind"] as? String == "light" }, "\(report["missing-reading-sensors"] ?? "")")
        #expect(light["id"] as? String == "iio:device1")
        #expect(light["name"] as? String == "als")
        return try #require(light["light"] as? [String: Any])
    }

    @Test("A light sensor held at one value is named as possibly stuck, in the text and in --json")
    func stuckLight() throws {
        let (testbed, _) = try testbed()
        let human = try OrientdProcess.run(["doctor", "--seconds", "2"], environment: testbed.environment)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.contains("Light sensor iio:device1 (als): found by IIO_SENSOR_PROXY_TYPE iio-poll-als, read every 0.8 s"), "\(human.stdout)")
        #expect(human.stdout.contains("first 50.0, last 50.0, minimum 50.0, maximum 50.0, 1 distinct value"))
        #expect(human.stdout.contains("the light sensor als (iio:device1) read one value, 50.0 lux, throughout 2.0 s"))
        #expect(human.stdout.contains("Proximity sensor: none (no proximity sensor found)"))

        let report = try parse(try OrientdProcess.run(["doctor", "--json", "--seconds", "2"], environment: testbed.environment))
        let readings = try light(in: report)
        #expect(readings["distinct"] as? Int == 1)
        #expect(readings["unit"] as? String == "lux")
        #expect((report["warnings"] as? [String] ?? []).contains { $0.contains("may be stuck") })
    }

    @Test("A light sensor whose level moves: its range and distinct values, no warning; a proximity sensor's near level")
    func movingLight() throws {
        let (testbed, path) = try testbed()
        _ = try testbed.addDevice(
            "iio:device2", attributes: ProximitySensorTests.proximityAttributes, properties: ProximitySensorTests.proximityProperties)
        // Raw 100 ± 40 at scale 0.5: 30 to 70 lux, a new value every 0.2 s.
        try testbed.hold(path, values: ["in_illuminance_raw": 100], noise: 40, period: 0.2)
        let json = try OrientdProcess.run(["doctor", "--json", "--seconds", "3"], environment: testbed.environment)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try parse(json)
        let readings = try light(in: report)
        let (minimum, maximum) = (try #require(readings["minimum"] as? Double), try #require(readings["maximum"] as? Double))
        #expect(30 <= minimum && minimum < maximum && maximum <= 70, "\(readings)")
        #expect((readings["distinct"] as? Int ?? 0) > 1)
        #expect(!(report["warnings"] as? [String] ?? []).contains { $0.contains("light sensor") }, "\(json.stdout)")
        let proximity = (report["reading-sensors"] as? [[String: Any]])?.first { $0["kind"] as? String == "proximity" }
        let near = proximity?["proximity"] as? [String: Any]
        #expect(near?["near-level"] as? Double == 100, "\(report["missing-reading-sensors"] ?? "")")
        #expect(near?["near"] as? Bool == false, "raw 20 is far below the near level")
    }

    @Test("A HID compass: its headings' range, in the text and in --json")
    func compass() throws {
        let (testbed, _) = try testbed()
        let compass = HIDSensor.compass
        try compass.add(to: testbed)
        // 90.5 degrees (raw 905 at scale 0.1), a scan every 0.05 s for 2 s: a hub reports on change, the last stands.
        try testbed.stream(compass.node, scanHex: HIDSensor.scan(905), count: 40, rate: 20)
        let human = try OrientdProcess.run(["doctor", "--seconds", "2"], environment: testbed.environment)
        #expect(human.stdout.contains("Compass iio:device2 (magn_3d): found by IIO_SENSOR_PROXY_TYPE iio-buffer-compass, read every 0.7 s"), "\(human.stdout)")
        #expect(human.stdout.contains("headings (degrees): first 90.5, last 90.5, minimum 90.5, maximum 90.5"), "\(human.stdout)")
        try testbed.stream(compass.node, scanHex: HIDSensor.scan(1805), count: 40, rate: 20)
        let report = try parse(try OrientdProcess.run(["doctor", "--json", "--seconds", "2"], environment: testbed.environment))
        let sensor = (report["reading-sensors"] as? [[String: Any]])?.first { $0["kind"] as? String == "compass" }
        let headings = sensor?["compass"] as? [String: Any]
        #expect(headings?["last"] as? Double == 180.5, "\(report)")
    }
}
