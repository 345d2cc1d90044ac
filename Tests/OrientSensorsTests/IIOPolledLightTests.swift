import Foundation
import Logging
import OrientSampleSource
@testable import OrientSensors
import Testing

/// The polled light driver on real files in a folder standing in for the device's sysfs folder.
@Suite("Polled IIO light sensor")
struct IIOPolledLightTests {
    /// A device folder holding `attributes` (with sysfs's trailing newline), as udev would describe it.
    final class Device {
        let facts: IIODeviceFacts

        init(_ attributes: [String: String], types: Set<String> = []) throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("light-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (name, value) in attributes { try (value + "\n").write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8) }
            facts = IIODeviceFacts(id: "iio:device1", path: path, name: "als", sensorProxyTypes: types, attributes: Set(attributes.keys))
        }

        func set(_ name: String, _ value: String) throws {
            try (value + "\n").write(toFile: facts.attributePath(name), atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: facts.path) }
    }

    let logger = Logger(label: "test")

    @Test("Found by iio-sensor-proxy's type, else by a light channel; an accelerometer is not one")
    func matching() throws {
        func facts(_ attributes: Set<String>, types: Set<String> = []) -> IIODeviceFacts {
            IIODeviceFacts(id: "iio:device0", path: "/x", sensorProxyTypes: types, attributes: attributes)
        }
        #expect(IIOPolledLight.match(facts([], types: ["iio-poll-accel", "iio-poll-als"])) == "IIO_SENSOR_PROXY_TYPE iio-poll-als")
        #expect(IIOPolledLight.match(facts(["in_illuminance_raw", "in_illuminance_scale"])) == "channel in_illuminance_raw")
        #expect(IIOPolledLight.match(facts(["in_illuminance0_input"])) == "channel in_illuminance0_input")
        #expect(IIOPolledLight.match(facts(["in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw"])) == nil)
        #expect(IIOPolledLight.match(facts(["in_intensity_both_raw"], types: ["iio-buffer-als"])) == nil, "a buffered HID sensor is another driver's")
    }

    @Test("The level is the input channel, else raw, times the scale (as iio-sensor-proxy applies it to both); input wins over raw")
    func level() throws {
        let input = try Device(["in_illuminance_input": "33.5", "in_illuminance_raw": "7", "in_illuminance_scale": "2"])
        #expect(try IIOPolledLight(device: input.facts, logger: logger).read() == .light(level: 67, unit: .lux))
        let unscaled = try Device(["in_illuminance0_input": "33.5"])
        #expect(try IIOPolledLight(device: unscaled.facts, logger: logger).read() == .light(level: 33.5, unit: .lux))
        let raw = try Device(["in_illuminance_raw": "100", "in_illuminance_scale": "0.5"])
        let sensor = try IIOPolledLight(device: raw.facts, logger: logger)
        #expect(try sensor.read() == .light(level: 50, unit: .lux))
        try raw.set("in_illuminance_raw", "250")
        #expect(try sensor.read() == .light(level: 125, unit: .lux), "read anew at each poll")
    }

    @Test("A scale that is missing or 0 counts as 1", arguments: [["in_illuminance_scale": "0"], [:]])
    func scaleOfOne(scale: [String: String]) throws {
        let device = try Device(scale.merging(["in_illuminance_raw": "42"]) { $1 })
        #expect(try IIOPolledLight(device: device.facts, logger: logger).read() == .light(level: 42, unit: .lux))
    }

    @Test("Read every in_illuminance_integration_time seconds, else every 0.8 s")
    func interval() throws {
        let timed = try Device(["in_illuminance_input": "1", "in_illuminance_integration_time": "0.25"])
        #expect(try IIOPolledLight(device: timed.facts, logger: logger).interval == 0.25)
        let untimed = try Device(["in_illuminance_input": "1"])
        #expect(try IIOPolledLight(device: untimed.facts, logger: logger).interval == 0.8)
        let zero = try Device(["in_illuminance_input": "1", "in_illuminance_integration_time": "0"])
        #expect(try IIOPolledLight(device: zero.facts, logger: logger).interval == 0.8, "a zero interval would spin")
    }

    @Test("A value that is not a number, and a file gone, are faults naming the file; only the second is the device gone")
    func faults() throws {
        let device = try Device(["in_illuminance_input": "12"])
        let sensor = try IIOPolledLight(device: device.facts, logger: logger)
        try device.set("in_illuminance_input", "abc")
        #expect {
            try sensor.read()
        } throws: { error in
            let fault = error as? AttributeFault
            return fault?.deviceIsGone == false
                && "\(error)" == "\(device.facts.path)/in_illuminance_input reads \"abc\", not a number"
        }
        try FileManager.default.removeItem(atPath: device.facts.attributePath("in_illuminance_input"))
        #expect {
            try sensor.read()
        } throws: { error in
            (error as? AttributeFault)?.deviceIsGone == true && "\(error)".hasPrefix("\(device.facts.path)/in_illuminance_input: ")
        }
    }
}
