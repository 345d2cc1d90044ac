import Logging
import OrientCore
import OrientSampleSource
@testable import OrientSensors
import Testing

/// iio-sensor-proxy's fake light sensor and compass (`FAKE_LIGHT_SENSOR`, `FAKE_COMPASS`), standing in for hardware a
/// desktop developer lacks. The variables are told to `match`, not set in this process's environment, which other
/// threads read meanwhile. Their counts live as long as the process: each is read by one test only.
@Suite("Fake light sensor and compass")
struct FakeReadingDriverTests {
    /// An input device as udev describes it, by its udev property `NAME` (quotes included).
    static func input(_ name: String) -> IIODeviceFacts {
        IIODeviceFacts(
            id: "event3", path: "/x", sensorProxyTypes: [], attributes: [], inputName: name, subsystem: "input")
    }

    static let powerButton = input("\"Power Button\"")
    let logger = Logger(label: "test")

    @Test("Each stands on the input device \"Power Button\" with its own variable only; without it, the button is no sensor")
    func matching() {
        #expect(FakeLight.variable == "FAKE_LIGHT_SENSOR" && FakeCompass.variable == "FAKE_COMPASS")
        #expect(FakeLight.match(Self.powerButton, variableIsSet: true) == "FAKE_LIGHT_SENSOR and the input device \"Power Button\"")
        #expect(FakeCompass.match(Self.powerButton, variableIsSet: true) == "FAKE_COMPASS and the input device \"Power Button\"")
        #expect(FakeLight.match(Self.powerButton, variableIsSet: false) == nil)
        #expect(FakeLight.match(Self.input("\"Lid Switch\""), variableIsSet: true) == nil)
        #expect(FakeLight.subsystems == ["input"] && FakeCompass.subsystems == ["input"])
        // This process does not set them: as the daemon without them.
        #expect(FakeLight.match(Self.powerButton) == nil && FakeCompass.match(Self.powerButton) == nil)
        #expect(ReadingSources.drivers(for: .light).contains { ObjectIdentifier($0) == ObjectIdentifier(FakeLight.self) })
        #expect(ReadingSources.drivers(for: .compass).contains { ObjectIdentifier($0) == ObjectIdentifier(FakeCompass.self) })
    }

    @Test("The light sensor reads 0 lux, then one more at every read, once a second; opened again, it counts on; its levels go out as read")
    func light() {
        let sensor = FakeLight(device: Self.powerButton, logger: logger)
        #expect(sensor.interval == 1)
        #expect(sensor.read() == .light(level: 0, unit: .lux))
        #expect(sensor.read() == .light(level: 1, unit: .lux))
        let reopened = FakeLight(device: Self.powerButton, logger: logger)
        #expect(reopened.read() == .light(level: 2, unit: .lux), "the count went on across closing and opening")
        var description = ReadingSensorDescription(kind: .light, id: "event3", name: "event3", interval: 1, foundBy: "test")
        reopened.describe(&description)
        #expect(description.publishedAsRead, "past the light filter, as iio-sensor-proxy sends them")
    }

    @Test("The compass heads 10°, then 10° more at every read, once a second, back to 0 at 360")
    func compass() {
        let sensor = FakeCompass(device: Self.powerButton, logger: logger)
        #expect(sensor.interval == 1)
        #expect(sensor.read() == .compass(heading: 10))
        #expect(sensor.read() == .compass(heading: 20))
        for _ in 0..<33 { _ = sensor.read() }
        #expect(sensor.read() == .compass(heading: 0))
    }
}
