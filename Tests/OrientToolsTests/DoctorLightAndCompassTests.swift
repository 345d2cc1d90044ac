import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientTools
import Testing

/// `orientd doctor`'s light sensor and compass sections from the events their sources give, as the daemon's own
/// reading sources found and read them under umockdev (the sources: Tests/OrientSensorsTests; the whole path:
/// ConvertibleToolsTests).
@Suite("orientd doctor's light sensor and compass, from their sources' events")
struct DoctorLightAndCompassTests {
    private static let als = ReadingSensorDescription(
        kind: .light, id: "iio:device1", name: "als", interval: 0.8, foundBy: "IIO_SENSOR_PROXY_TYPE iio-poll-als")
    private static let magnetometer = ReadingSensorDescription(
        kind: .compass, id: "iio:device2", name: "magn_3d", interval: 0.7, foundBy: "IIO_SENSOR_PROXY_TYPE iio-buffer-compass")

    @Test("A light sensor held at one value is named as possibly stuck, in the text and in --json; a missing proximity sensor in one line")
    func stuckLight() throws {
        var report = DoctorReport()
        report.analyseReadings(
            [.opened(Self.als)] + Array(repeating: .reading(.light(level: 50, unit: .lux)), count: 3), kind: .light, seconds: 2)
        report.analyseReadings([.noSensor(reason: "no proximity sensor found")], kind: .proximity, seconds: 2)
        let text = report.text
        #expect(text.contains("\nLight sensor iio:device1 (als): found by IIO_SENSOR_PROXY_TYPE iio-poll-als, read every 0.8 s\n"), "\(text)")
        #expect(text.contains("\n  3 readings (lux): first 50.0, last 50.0, minimum 50.0, maximum 50.0, 1 distinct value\n"))
        #expect(text.contains("the light sensor als (iio:device1) read one value, 50.0 lux, throughout 2.0 s"))
        #expect(text.contains("\nProximity sensor: none (no proximity sensor found)\n"))

        let json = try DoctorConvertibleTests.json(report)
        let light = (json["reading-sensors"] as? [[String: Any]])?.first { $0["kind"] as? String == "light" }?["light"] as? [String: Any]
        #expect(light?["distinct"] as? Int == 1)
        #expect(light?["unit"] as? String == "lux")
        #expect((json["warnings"] as? [String] ?? []).contains { $0.contains("may be stuck") })
        #expect((json["missing-reading-sensors"] as? [String: String])?["proximity"] == "no proximity sensor found")
    }

    @Test("A compass: its headings' range, in the text and in --json")
    func compass() throws {
        var held = DoctorReport()
        held.analyseReadings(
            [.opened(Self.magnetometer)] + Array(repeating: .reading(.compass(heading: 90.5)), count: 3), kind: .compass, seconds: 2)
        #expect(held.text.contains(
            "\nCompass iio:device2 (magn_3d): found by IIO_SENSOR_PROXY_TYPE iio-buffer-compass, read every 0.7 s\n"), "\(held.text)")
        #expect(held.text.contains("\n  3 headings (degrees): first 90.5, last 90.5, minimum 90.5, maximum 90.5\n"))

        var turned = DoctorReport()
        turned.analyseReadings(
            [.opened(Self.magnetometer), .reading(.compass(heading: 90.5)), .reading(.compass(heading: 180.5))],
            kind: .compass, seconds: 2)
        let json = try DoctorConvertibleTests.json(turned)
        let headings = (json["reading-sensors"] as? [[String: Any]])?.first { $0["kind"] as? String == "compass" }?["compass"] as? [String: Any]
        #expect(headings?["first"] as? Double == 90.5)
        #expect(headings?["last"] as? Double == 180.5)
        #expect(headings?["maximum"] as? Double == 180.5)
        #expect(turned.warnings.isEmpty, "a compass is not warned about")
    }
}
