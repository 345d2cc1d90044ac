import Foundation
import OrientCore
@testable import OrientSensors
import Testing

/// The buffer-only accelerometer's reader on real files: a folder standing in for its sysfs folder, and the data
/// file iio-sensor-proxy's suite writes its scans to.
@Suite("Buffer-only accelerometer read from a scan file")
struct ScanFileAccelerometerTests {
    /// A device folder with x, y, z as 16 bits in 32, a timestamp, and `attributes` beside them.
    final class Device {
        let path: String
        var data: String { path + "/iio-dev-data.bin" }

        init(_ attributes: [String: String] = [:], type: String = "le:s16/32>>0") throws {
            path = NSTemporaryDirectory() + "scan-file-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: path + "/scan_elements", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: path + "/buffer", withIntermediateDirectories: true)
            var files = attributes.merging(["name": "IIO Test Accelerometer\n", "buffer/enable": "0"]) { a, _ in a }
            for (index, axis) in ["x", "y", "z"].enumerated() {
                files["scan_elements/in_accel_\(axis)_en"] = "0"
                files["scan_elements/in_accel_\(axis)_index"] = "\(index)"
                files["scan_elements/in_accel_\(axis)_type"] = type
            }
            files["scan_elements/in_timestamp_en"] = "1"
            files["scan_elements/in_timestamp_index"] = "3"
            files["scan_elements/in_timestamp_type"] = "le:s64/64>>0"
            for (name, text) in files { try text.write(toFile: path + "/" + name, atomically: false, encoding: .utf8) }
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func attribute(_ name: String) -> String? { try? String(contentsOfFile: path + "/" + name, encoding: .utf8) }

        /// Scans of (x, y, z), each value in the low half of its word with junk above, then a timestamp.
        func write(_ scans: [(Int16, Int16, Int16)], extra: [UInt8] = []) throws {
            var bytes: [UInt8] = []
            for (x, y, z) in scans {
                for value in [x, y, z] {
                    let word = UInt16(bitPattern: value)
                    bytes += [UInt8(word & 0xFF), UInt8(word >> 8), 0x69, 0xFC]
                }
                bytes += [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]
            }
            try Data(bytes + extra).write(to: URL(fileURLWithPath: data))
        }
    }

    @Test("The last complete scan, its offset added; scale and offset per axis else shared; elements and buffer enabled while open")
    func reads() throws {
        let device = try Device(["in_accel_scale": "0.000010\n", "in_accel_x_scale": "0.5\n", "in_accel_offset": "1\n"])
        try device.write([(1, 2, 3), (103, -919, -385)], extra: [9, 9, 9])
        var reader: ScanFileAccelerometer? = try ScanFileAccelerometer(id: "iio-buffer-accel0", sysfsPath: device.path, file: device.data)
        #expect(reader?.name == "IIO Test Accelerometer")
        #expect(reader?.scale == Vector3(0.5, 0.000010, 0.000010))
        #expect(try reader?.read().value == Vector3(104, -918, -384))
        #expect(device.attribute("scan_elements/in_accel_y_en") == "1")
        #expect(device.attribute("buffer/enable") == "1")
        reader = nil
        #expect(device.attribute("buffer/enable") == "0", "disabled once closed")
    }

    @Test("A missing file keeps the last reading; before any, a read fails without the device counting as gone")
    func missingFile() throws {
        let device = try Device()
        let reader = try ScanFileAccelerometer(id: "iio-buffer-accel0", sysfsPath: device.path, file: device.data)
        do {
            _ = try reader.read()
            Issue.record("read with no data")
        } catch {
            #expect(!error.deviceIsGone, "\(error)")
        }
        try device.write([(0, -256, 0)])
        #expect(try reader.read().value == Vector3(0, -256, 0))
        try FileManager.default.removeItem(atPath: device.data)
        #expect(try reader.read().value == Vector3(0, -256, 0))
        try device.write([(256, 0, 0)])
        #expect(try reader.read().value == Vector3(256, 0, 0), "the file opened again at each read")
    }

    @Test("Bad input: a scan element type that is none, and a scale of 0, refuse the device naming what is wrong")
    func badInput() throws {
        let garbled = try Device(type: "le:sixteen")
        let refused = #expect(throws: SensorError.self) {
            try ScanFileAccelerometer(id: "iio-buffer-accel0", sysfsPath: garbled.path, file: garbled.data)
        }
        #expect(refused.map { "\($0)".contains("in_accel_x_type reads \"le:sixteen\"") } == true, "\(String(describing: refused))")
        let zero = try Device(["in_accel_scale": "0\n"])
        let unscaled = #expect(throws: SensorError.self) {
            try ScanFileAccelerometer(id: "iio-buffer-accel0", sysfsPath: zero.path, file: zero.data)
        }
        #expect(unscaled.map { "\($0)".contains("scale") } == true, "\(String(describing: unscaled))")
    }
}
