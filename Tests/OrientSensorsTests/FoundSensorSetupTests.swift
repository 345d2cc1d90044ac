import Foundation
import OrientCore
@testable import OrientSensors
import Testing

/// A sensor found sampling slower than 10 Hz is set to at least 10 Hz, before any client, as iio-sensor-proxy 3.9
/// does when it finds one: on devices in a folder (``FolderDeviceDirectory``). The accelerometer's case, through the
/// daemon under umockdev, is `SamplingFrequencyTests`.
@Suite("Sampling frequency set when a sensor is found")
struct FoundSensorSetupTests {
    let directory: FolderDeviceDirectory
    let log = RecordingLog()

    init() throws { directory = try FolderDeviceDirectory() }

    /// What attribute `name` of device `id` reads now.
    private func read(_ name: String, of id: String) -> String? {
        try? String(contentsOfFile: "\(directory.root)/\(id)/\(name)", encoding: .utf8)
    }

    @Test("The smallest listed at 10 Hz or more, written as the driver lists it and said in the log; once per device until it goes")
    func fromTheList() throws {
        let device = try directory.add("iio:device0", attributes: [
            "sampling_frequency": "5.2",
            "sampling_frequency_available": "800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000",
        ])
        let setup = FoundSensorSetup(logger: log.logger)
        setup.fix(device)
        #expect(read("sampling_frequency", of: "iio:device0") == "12.5")
        #expect(log.contains("iio:device0: sampling_frequency 5.2 Hz set to 12.5 Hz (sampling_frequency)"))
        try directory.set("sampling_frequency", of: "iio:device0", to: "5.2")
        setup.fix(device)
        #expect(read("sampling_frequency", of: "iio:device0") == "5.2\n", "set once while it stays plugged in")
        setup.forget(["iio:device0"])
        setup.fix(device)
        #expect(read("sampling_frequency", of: "iio:device0") == "12.5", "plugged back: set again")
    }

    @Test("With no list, 10 Hz; at 10 Hz or more, left alone; every attribute ending in sampling_frequency")
    func noListAndFastEnough() throws {
        let device = try directory.add("iio:device1", attributes: [
            "in_illuminance_sampling_frequency": "1", "sampling_frequency": "50", "in_illuminance_raw": "3",
        ])
        FoundSensorSetup(logger: log.logger).fix(device)
        #expect(read("in_illuminance_sampling_frequency", of: "iio:device1") == "10")
        #expect(read("sampling_frequency", of: "iio:device1") == "50\n", "left as it was")
        #expect(log.count { $0.contains("set to") } == 1)
    }

    @Test("A list with a word that is not a number: one line naming the file, the numbers before it chosen from")
    func unreadableList() throws {
        let device = try directory.add("iio:device0", attributes: [
            "sampling_frequency": "2", "sampling_frequency_available": "1 6 fast 25",
        ])
        FoundSensorSetup(logger: log.logger).fix(device)
        #expect(read("sampling_frequency", of: "iio:device0") == "6", "the largest before the word")
        #expect(log.count { $0.contains("\"fast\" is not a number") && $0.contains("sampling_frequency_available") } == 1)
    }

    @Test("A platform device (applesmc) is left alone")
    func notIIO() throws {
        let device = try directory.add("applesmc.768", subsystem: "platform", attributes: ["sampling_frequency": "1", "light": "(1,2)"])
        FoundSensorSetup(logger: log.logger).fix(device)
        #expect(read("sampling_frequency", of: "applesmc.768") == "1\n")
    }

    @Test("A light sensor's source sets it as it finds the sensor, before anything opens it")
    func setByPresence() async throws {
        try directory.add("iio:device1", attributes: [
            "in_illuminance_raw": "100", "in_illuminance_scale": "0.5", "sampling_frequency": "1",
        ])
        let source = PolledReadingSource([IIOPolledLight.self], directory: directory, logger: log.logger)
        var presence = source.presence().makeAsyncIterator()
        #expect(await presence.next() == true)
        #expect(read("sampling_frequency", of: "iio:device1") == "10")
    }
}
