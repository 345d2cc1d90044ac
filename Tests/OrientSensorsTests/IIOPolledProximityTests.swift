import Foundation
import Logging
import OrientSampleSource
@testable import OrientSensors
import Testing

/// The polled proximity driver: iio-sensor-proxy 3.9's margin, how it is found, where its near level comes from,
/// and reads on real files in a folder standing in for the device's sysfs folder.
@Suite("Polled IIO proximity sensor")
struct IIOPolledProximityTests {
    typealias Device = IIOPolledLightTests.Device
    let logger = Logger(label: "test")

    @Test("Near above 110 % of the level after a reading at or below it, above 90 % after one above it")
    func margin() {
        #expect(!IIOPolledProximity.isNear(raw: 110, level: 100, previous: 100))
        #expect(IIOPolledProximity.isNear(raw: 111, level: 100, previous: 0))
        #expect(IIOPolledProximity.isNear(raw: 91, level: 100, previous: 101))
        #expect(!IIOPolledProximity.isNear(raw: 90, level: 100, previous: 150))
    }

    @Test("A steady reading is near exactly when above the level, from its second read; one read across does not flip it",
          arguments: [99.0, 100, 101, 105, 109, 111, 50, 200])
    func steady(raw: Double) {
        for previous in [0.0, 95, 105, 300] {
            let first = IIOPolledProximity.isNear(raw: raw, level: 100, previous: previous)
            let second = IIOPolledProximity.isNear(raw: raw, level: 100, previous: raw)
            #expect(second == (raw > 100), "\(raw) after \(previous)")
            // Clear of the margin, the first read decides already.
            if raw > 110 || raw <= 90 { #expect(first == second) }
        }
    }

    @Test("Found by iio-sensor-proxy's type, else by in_proximity_raw; a light sensor is not one")
    func matching() {
        func facts(_ attributes: Set<String>, types: Set<String> = []) -> IIODeviceFacts {
            IIODeviceFacts(id: "iio:device2", path: "/x", sensorProxyTypes: types, attributes: attributes)
        }
        #expect(IIOPolledProximity.match(facts([], types: ["iio-poll-als", "iio-poll-proximity"])) == "IIO_SENSOR_PROXY_TYPE iio-poll-proximity")
        #expect(IIOPolledProximity.match(facts(["in_proximity_raw", "in_proximity_nearlevel"])) == "channel in_proximity_raw")
        #expect(IIOPolledProximity.match(facts(["in_proximity0_raw", "in_proximity_nearlevel"])) == "channel in_proximity0_raw")
        #expect(IIOPolledProximity.match(facts(["in_illuminance_raw"], types: ["iio-poll-als"])) == nil)
    }

    @Test("The near level is the udev property, else in_proximity_nearlevel; with neither (or 0, or words) it is not offered")
    func nearLevel() throws {
        let both = try Device(["in_proximity_raw": "0", "in_proximity_nearlevel": "50"])
        var facts = both.facts
        facts.proximityNearLevel = "200"
        #expect(try IIOPolledProximity.readNearLevel(of: facts).get() == 200, "the property wins")
        #expect(IIOPolledProximity.unusable(facts) == nil && IIOPolledProximity.offer(facts) == "channel in_proximity_raw")
        facts.proximityNearLevel = "0"
        #expect(try IIOPolledProximity.readNearLevel(of: facts).get() == 50, "a property of 0 counts as missing")
        #expect(try IIOPolledProximity.readNearLevel(of: both.facts).get() == 50)

        let neither = try Device(["in_proximity_raw": "0"])
        #expect(IIOPolledProximity.offer(neither.facts) == nil)
        #expect(IIOPolledProximity.unusable(neither.facts)
            == "no near level (no udev property PROXIMITY_NEAR_LEVEL; no \(neither.facts.path)/in_proximity_nearlevel)")
        let zero = try Device(["in_proximity_raw": "0", "in_proximity_nearlevel": "0"])
        var words = zero.facts
        words.proximityNearLevel = "far"
        #expect(IIOPolledProximity.unusable(words) == "no near level (PROXIMITY_NEAR_LEVEL is \"far\", not a number above 0; "
            + "\(zero.facts.path)/in_proximity_nearlevel reads \"0\", not a number above 0)")
    }

    @Test("Read every 0.7 s; each read is decided against the reading before, in_proximity0_raw when that is the channel",
          arguments: ["in_proximity_raw", "in_proximity0_raw"])
    func reads(channel: String) throws {
        let device = try Device([channel: "105", "in_proximity_nearlevel": "100"])
        let sensor = try IIOPolledProximity(device: device.facts, logger: logger)
        #expect(sensor.interval == 0.7)
        #expect(try sensor.read() == .proximity(near: false), "just above the level after 0: not yet")
        #expect(try sensor.read() == .proximity(near: true), "read again: near")
        try device.set(channel, "95")
        #expect(try sensor.read() == .proximity(near: true), "just below after a near one: not yet")
        #expect(try sensor.read() == .proximity(near: false))
        try device.set(channel, "300")
        #expect(try sensor.read() == .proximity(near: true), "clear of the margin: at once")
    }

    @Test("A value that is not a number is a fault naming the file, not the device gone")
    func notANumber() throws {
        let device = try Device(["in_proximity_raw": "1", "in_proximity_nearlevel": "100"])
        let sensor = try IIOPolledProximity(device: device.facts, logger: logger)
        try device.set("in_proximity_raw", "near")
        #expect {
            try sensor.read()
        } throws: { error in
            (error as? AttributeFault)?.deviceIsGone == false
                && "\(error)" == "\(device.facts.path)/in_proximity_raw reads \"near\", not a number"
        }
    }
}
