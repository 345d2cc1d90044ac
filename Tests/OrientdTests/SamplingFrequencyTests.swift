import Foundation
import Testing

/// A sensor found sampling slower than 10 Hz is set to at least 10 Hz, before any client, as iio-sensor-proxy 3.9
/// does when it finds one: here the accelerometer, found by the daemon under umockdev. The choice, the file written
/// and its problems, and the light sensor's case: `FoundSensorSetupTests`.
@Suite(
    "Sampling frequency set when a sensor is found", .serialized,
    .enabled(if: PrivateBus.isAvailable, Comment(rawValue: PrivateBus.skipReason)),
    .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct SamplingFrequencyTests {
    @Test("An accelerometer at 5.2 Hz: the smallest listed at 10 Hz or more, written as the driver lists it, before any claim")
    func accelerometer() throws {
        let setup = try LightSensorTests.Setup(light: false)
        let accelerometer = setup.accelerometerPath
        try setup.testbed.set(accelerometer, "sampling_frequency", "5.2")
        try setup.testbed.set(
            accelerometer, "sampling_frequency_available",
            "800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 1.560000")
        try setup.startOrientd()
        let file = setup.testbed.root + accelerometer + "/sampling_frequency"
        #expect(waitFor { (try? String(contentsOfFile: file, encoding: .utf8)) == "12.5" }, "\(setup.daemon.log)")
        #expect(setup.daemon.log.contains("sampling_frequency 5.2 Hz set to 12.5 Hz"))
    }
}
