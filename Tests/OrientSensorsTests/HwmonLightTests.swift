import Foundation
import Logging
import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Testing

/// applesmc's light sensor driver on a real file in a folder standing in for the platform device's sysfs folder.
@Suite("hwmon light sensor (applesmc)")
struct HwmonLightTests {
    let logger = Logger(label: "test")

    /// A platform device as udev describes applesmc's.
    static func facts(
        _ attributes: Set<String> = ["light", "name"], name: String? = "applesmc", types: Set<String> = [], path: String = "/x"
    ) -> IIODeviceFacts {
        IIODeviceFacts(
            id: "applesmc.768", path: path, name: name, sensorProxyTypes: types, attributes: attributes, subsystem: "platform")
    }

    @Test("Found by iio-sensor-proxy's type, else only as applesmc's attribute light; on platform devices")
    func matching() {
        #expect(HwmonLight.subsystems == ["platform"])
        #expect(HwmonLight.match(Self.facts([], name: nil, types: ["hwmon-als"])) == "IIO_SENSOR_PROXY_TYPE hwmon-als")
        #expect(HwmonLight.match(Self.facts()) == "applesmc's attribute light")
        #expect(HwmonLight.match(Self.facts(["light"], name: "some-led-driver")) == nil, "another driver's light may mean anything")
        #expect(HwmonLight.match(Self.facts(["name"])) == nil, "applesmc without a light sensor")
    }

    @Test("(l,r) is read with spaces allowed around each number, as iio-sensor-proxy's sscanf allows", arguments: [
        ("(128,128)", 128, 128), ("(3,250)\n", 3, 250), ("( 7 , 9 )", 7, 9), ("(-4,2)", -4, 2),
    ])
    func sides(text: String, left: Int, right: Int) throws {
        let sides = try #require(HwmonLight.sides(parsing: text))
        #expect(sides.left == left && sides.right == right)
    }

    @Test("Text that is not (l,r) is refused", arguments: ["", "128", "(128)", "(1,2,3)", "(a,b)", "1,2", "(1.5,2)", "(1,2"])
    func notAPair(text: String) {
        #expect(HwmonLight.sides(parsing: text) == nil, "\(text)")
    }

    @Test("The level is the brighter side in % of 255, in single precision as iio-sensor-proxy computes it")
    func level() {
        #expect(HwmonLight.level(left: 255, right: 3) == 100)
        #expect(HwmonLight.level(left: 0, right: 0) == 0)
        let half = HwmonLight.level(left: 128, right: 64)
        #expect(String(format: "%f", half) == "50.196083", "monitor-sensor prints iio-sensor-proxy's 50.196083")
        #expect(String(format: "%f", 128.0 / 255 * 100) == "50.196078", "where double precision would print 50.196078")
    }

    @Test("Read from the file at every read, unit vendor, every 8 s; a bad value names the file; a vanished file is gone")
    func reading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("applesmc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "(51,0)\n".write(toFile: folder + "/light", atomically: true, encoding: .utf8)
        let sensor = try HwmonLight(device: Self.facts(path: folder), logger: logger)
        #expect(sensor.interval == 8)
        #expect(try sensor.read() == .light(level: 20, unit: .vendor))
        try "(0,255)\n".write(toFile: folder + "/light", atomically: true, encoding: .utf8)
        #expect(try sensor.read() == .light(level: 100, unit: .vendor))

        try "garbage\n".write(toFile: folder + "/light", atomically: true, encoding: .utf8)
        #expect(throws: AttributeFault(path: folder + "/light", problem: .notOfTheForm(text: "garbage", form: "(l,r)"))) {
            try sensor.read()
        }
        #expect("\(AttributeFault(path: folder + "/light", problem: .notOfTheForm(text: "garbage", form: "(l,r)")))"
            == "\(folder)/light reads \"garbage\", not of the form (l,r)")
        try FileManager.default.removeItem(atPath: folder + "/light")
        do {
            _ = try sensor.read()
            Issue.record("read a file that is gone")
        } catch {
            #expect(error.deviceIsGone, "\(error)")
        }
    }

    @Test("A device with no light attribute cannot be opened, whatever its tag")
    func noAttribute() {
        #expect(throws: AttributeFault.self) { try HwmonLight(device: Self.facts([], types: ["hwmon-als"]), logger: logger) }
    }

    @Test("Light drivers are tried as iio-sensor-proxy tries them: every IIO device before any platform one")
    func order() {
        let drivers = PolledReadingDrivers([IIOPolledLight.self, HwmonLight.self])
        #expect(drivers.subsystems == ["iio", "platform"])
        let iio = IIODeviceFacts(id: "iio:device3", path: "/y", sensorProxyTypes: [], attributes: ["in_illuminance_raw"])
        let chosen = drivers.firstOffered(in: [iio, Self.facts()])
        #expect(chosen?.device.id == "iio:device3" && chosen?.offers.map { ObjectIdentifier($0.driver) } == [ObjectIdentifier(IIOPolledLight.self)])
        #expect(drivers.firstOffered(in: [Self.facts()])?.offers.map(\.foundBy) == ["applesmc's attribute light"])
        // An IIO driver is never shown a platform device, nor the other way round.
        let platformWithChannel = IIODeviceFacts(
            id: "odd.0", path: "/z", sensorProxyTypes: [], attributes: ["in_illuminance_raw"], subsystem: "platform")
        #expect(drivers.firstOffered(in: [platformWithChannel]) == nil)
    }

    @Test("A device two drivers offer is offered by both, in order: the buffer's first, polling next")
    func bothOffersOfOneDevice() {
        let drivers = PolledReadingDrivers([IIOBufferedLight.self, IIOPolledLight.self])
        // An I2C part tagged for its buffer (ltr501 under iio-sensor-proxy's rule) that also has polled attributes.
        let part = IIODeviceFacts(
            id: "iio:device0", path: "/x", sensorProxyTypes: ["iio-buffer-als"], attributes: ["in_illuminance_input"])
        let offered = drivers.firstOffered(in: [part])
        #expect(offered?.offers.map { ObjectIdentifier($0.driver) } == [ObjectIdentifier(IIOBufferedLight.self), ObjectIdentifier(IIOPolledLight.self)])
    }
}

@Suite("The reading sources the daemon serves")
struct ReadingSourcesTests {
    @Test("One source per kind: the daemon keys each kind's presence, claims and service by it, so a second light source would fight the first")
    func oneSourcePerKind() throws {
        let kinds = ReadingSources.all(directory: try FolderDeviceDirectory(), logger: Logger(label: "test")).map(\.kind)
        #expect(kinds.count == Set(kinds).count, "\(kinds)")
        #expect(kinds.contains(.light) && kinds.contains(.proximity))
    }

    @Test("Each kind's drivers read that kind")
    func driversOfTheirKind() {
        for kind in SensorKind.allCases {
            for driver in ReadingSources.drivers(for: kind) { #expect(driver.kind == kind, "\(driver)") }
        }
    }
}
