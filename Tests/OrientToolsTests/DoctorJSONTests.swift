import Foundation
import OrientCore
import OrientSampleSource
@testable import OrientSensors
@testable import OrientTools
import Testing

@Suite("orientd doctor --json's shape")
struct DoctorJSONTests {
    @Test("doctor --json writes every key in kebab-case, as the protocol does, and paths without escaped slashes")
    func keysAndPaths() throws {
        // Every section filled: a convertible with a learned scale, the reading sensors, the switches, the daemon.
        let learned = GravityCorrection(restMagnitude: 256, factor: 9.80665 / 256, publishedScale: nil)
        var report = DoctorConvertibleTests.report(
            [DoctorConvertibleTests.opened(), .gravityLearned(learned)] + DoctorConvertibleTests.samples())
        let als = ReadingSensorDescription(kind: .light, id: "iio:device2", name: "als", interval: 0.8, foundBy: "channel in_illuminance_raw")
        report.analyseReadings([.opened(als), .reading(.light(level: 50, unit: .lux))], kind: .light, seconds: 2)
        report.analyseReadings([.noSensor(reason: "no proximity sensor found")], kind: .proximity, seconds: 2)
        report.tabletMode = DoctorReport.TabletMode(switches: [
            TabletModeSwitchDevice(name: "Intel Virtual Buttons", node: "/dev/input/event6", isOrientds: false)
        ])
        let socket = "/nonexistent/orientd.sock"
        report.daemon = DoctorReport.RunningDaemon(
            socket: socket, unreachable: "orientd is not running (cannot connect to \(socket): No such file or directory)")

        let text = String(decoding: try ToolJSON.encoder().encode(report), as: UTF8.self)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var keys: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                keys += object.keys
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(json)
        for key in ["missing-reading-sensors", "reading-sensors", "mount-matrix-source", "scale-correction", "location-source",
                    "tablet-mode", "is-orientds", "unknown-reason", "found-by"] {
            #expect(keys.contains(key), "\(key) in \(keys)")
        }
        #expect(keys.allSatisfy { $0 == $0.lowercased() && !$0.contains("_") }, "\(keys)")
        // Paths as paths: the daemon's socket, the base's sysfs path, the switch's node.
        #expect(text.contains("\"\(socket)\""), "\(text)")
        #expect(text.contains("\"\(DoctorConvertibleTests.basePath)\""))
        #expect(!text.contains("\\/"), "\(text)")
    }
}
