import Foundation
import Testing

/// A sensor found sampling slower than 10 Hz is set to at least 10 Hz, before any client, as iio-sensor-proxy 3.9
/// does when it finds one.
@Suite(
    "Sampling frequency set when a sensor is found", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct SamplingFrequencyTests {
    /// Starts the daemon on an accelerometer whose sysfs has `frequency` attributes; returns what
    /// `sampling_frequency` reads once it settles (nil if never changed from `initial`), and the daemon's log.
    private func settled(accelerometer frequency: [String: String], light: [String: String]? = nil) throws -> (accel: String?, light: String?, log: String) {
        let setup = try LightSensorTests.Setup(light: false)
        let accelerometer = setup.accelerometerPath
        for (name, value) in frequency { try setup.testbed.set(accelerometer, name, value) }
        var lightPath: String?
        if let light {
            lightPath = try setup.testbed.addDevice(
                "iio:device1", attributes: LightSensorTests.lightAttributes.merging(light) { $1 },
                properties: LightSensorTests.lightProperties)
        }
        try setup.startOrientd()
        func read(_ path: String?) -> String? {
            path.flatMap { try? String(contentsOfFile: setup.testbed.root + $0 + "/sampling_frequency", encoding: .utf8) }
        }
        _ = waitFor { read(accelerometer) != frequency["sampling_frequency"].map { $0 + "\n" } }
        if lightPath != nil { _ = waitFor { read(lightPath) != light?["sampling_frequency"].map { $0 + "\n" } } }
        return (read(accelerometer), read(lightPath), setup.daemon.log)
    }

    @Test("The smallest listed at 10 Hz or more, written as the driver lists it, before any claim", arguments: [
        ("3 6 12 25 50 100 200 400 800 1600", "12"),
        ("800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000", "12.5"),
    ])
    func fromTheList(available: String, written: String) throws {
        let found = try settled(accelerometer: ["sampling_frequency": "5.2", "sampling_frequency_available": available])
        #expect(found.accel == written, "\(found.log)")
        #expect(found.log.contains("sampling_frequency 5.2 Hz set to \(written) Hz"))
    }

    @Test("A light sensor too; with no list, 10 Hz; at 10 Hz or more, left alone")
    func lightAndNoList() throws {
        let found = try settled(accelerometer: ["sampling_frequency": "50"], light: ["sampling_frequency": "1"])
        #expect(found.light == "10", "\(found.log)")
        #expect(found.accel == "50\n", "left as it was")
    }

    @Test("A list with a word that is not a number: one line naming the file, the numbers before it chosen from, the sensor served")
    func unreadableList() throws {
        let found = try settled(accelerometer: ["sampling_frequency": "2", "sampling_frequency_available": "1 6 fast 25"])
        #expect(found.accel == "6", "the largest before the word: \(found.log)")
        let lines = found.log.split(separator: "\n").filter { $0.contains("\"fast\" is not a number") }
        #expect(lines.count == 1 && lines[0].contains("sampling_frequency_available"), "\(found.log)")
    }
}
