import Foundation
@testable import OrientSensors
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's hinge sensors read from folders laid out as their drivers lay out sysfs
/// (``FolderDeviceDirectory``), good values and bad.
@Suite("Kernel hinge sensors")
struct HingeSensorTests {
    /// One degree in radians: hid-sensor-custom-intel-hinge's scale for a hub reporting whole degrees.
    static let degree = "0.017453293"

    let directory: FolderDeviceDirectory

    init() throws { directory = try FolderDeviceDirectory() }

    private func intel(raw: String, scale: String = degree, offset: String? = "0", label: String? = "hinge") throws -> IIODeviceFacts {
        var attributes = ["in_angl0_raw": raw, "in_angl1_raw": "30", "in_angl2_raw": "359", "in_angl_scale": scale]
        attributes["in_angl_offset"] = offset
        if let label { attributes.merge(["in_angl0_label": label, "in_angl1_label": "screen", "in_angl2_label": "keyboard"]) { $1 } }
        return try directory.add("iio:device4", name: "hinge", attributes: attributes)
    }

    private func cros(raw: String) throws -> IIODeviceFacts {
        try directory.add("iio:device5", name: "cros-ec-lid-angle", attributes: ["in_angl_raw": raw])
    }

    private func degrees(_ reading: HingeReading) -> Double? {
        guard case .degrees(let value) = reading else { return nil }
        return value
    }

    @Test("Found by their IIO names only")
    func found() throws {
        #expect(HingeSensor.driver(of: try intel(raw: "104")) == .intel)
        #expect(HingeSensor.driver(of: try cros(raw: "200")) == .cros)
        let accelerometer = try directory.add("iio:device0", name: "accel_3d", attributes: ["in_accel_x_raw": "0"])
        #expect(HingeSensor.driver(of: accelerometer) == nil)
        #expect(throws: AttributeFault.self) { try HingeSensor(device: accelerometer) }
    }

    @Test("Intel's hinge: raw 104 at one degree a unit is 104°; its channel 0 is the hinge whatever the others say")
    func intelDegrees() throws {
        let sensor = try HingeSensor(device: try intel(raw: "104"))
        #expect(try degrees(sensor.read()).map { abs($0 - 104) < 1e-4 } == true)
    }

    @Test("Intel's hinge: the offset is added before the scale, as the IIO ABI says; a missing offset is 0")
    func intelScaleAndOffset() throws {
        // Half a degree a unit: (350 + 10) × 0.5° = 180°.
        let half = try HingeSensor(device: try intel(raw: "350", scale: "0.0087266463", offset: "10"))
        #expect(try degrees(half.read()).map { abs($0 - 180) < 1e-4 } == true)
        let noOffset = try HingeSensor(device: try intel(raw: "90", offset: nil))
        #expect(try degrees(noOffset.read()).map { abs($0 - 90) < 1e-4 } == true)
    }

    @Test("Intel's hinge: a channel 0 labelled other than hinge is refused, naming the label; no label is taken")
    func intelLabel() throws {
        #expect {
            try HingeSensor(device: try intel(raw: "104", label: "screen"))
        } throws: { error in
            "\(error)".hasSuffix("in_angl0_label labels channel 0 \"screen\", not hinge")
        }
        #expect(throws: Never.self) { try HingeSensor(device: try intel(raw: "104", label: nil)) }
    }

    @Test("Intel's hinge with no scale cannot be read: refused, naming the file")
    func intelNoScale() throws {
        let device = try directory.add("iio:device4", name: "hinge", attributes: ["in_angl0_raw": "104"])
        #expect {
            try HingeSensor(device: device)
        } throws: { error in
            "\(error)".contains("iio:device4/in_angl_scale")
        }
    }

    @Test("cros-ec-lid-angle: the raw value in degrees; 500, the EC's word for cannot tell, is unknown")
    func crosDegrees() throws {
        let device = try cros(raw: "200")
        let sensor = try HingeSensor(device: device)
        #expect(try sensor.read() == .degrees(200))
        try "500\n".write(toFile: device.attributePath("in_angl_raw"), atomically: false, encoding: .utf8)
        #expect(try sensor.read() == .unknown(reason: "the EC cannot tell the angle (500)"))
        try "0\n".write(toFile: device.attributePath("in_angl_raw"), atomically: false, encoding: .utf8)
        #expect(try sensor.read() == .degrees(0), "closed is an angle, not a fault")
    }

    @Test("Text that is not a number, or an angle outside 0 to 360, is unknown, not a failure", arguments: ["abc", "", "361", "-4"])
    func unknownValues(_ raw: String) throws {
        let sensor = try HingeSensor(device: try cros(raw: raw))
        let reading = try sensor.read()
        guard case .unknown(let reason) = reading else {
            Issue.record("\(raw) read as \(reading)")
            return
        }
        #expect(reason.contains("in_angl_raw"), "names the file: \(reason)")
    }

    @Test("An attribute that cannot be read throws, naming the file; a sensor removed throws as gone")
    func unreadable() throws {
        let device = try cros(raw: "200")
        let sensor = try HingeSensor(device: device)
        // The tests may run as root, whom chmod 000 would not stop: a folder in the file's place cannot be read.
        let path = device.attributePath("in_angl_raw")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect {
            try sensor.read()
        } throws: { error in
            let fault = error as? AttributeFault
            return fault?.problem == .unreadable(errno: EISDIR) && fault?.path == path && fault?.deviceIsGone == false
        }
        try FileManager.default.removeItem(atPath: device.path)
        #expect {
            try sensor.read()
        } throws: { error in
            (error as? AttributeFault)?.deviceIsGone == true
        }
    }
}
