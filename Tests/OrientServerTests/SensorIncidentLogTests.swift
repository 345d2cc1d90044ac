import OrientCore
import OrientProtocol
import Testing

@testable import OrientServer

@Suite("Sensor incident log")
struct SensorIncidentLogTests {
    @Test("Counted per kind, the last one kept with its time to a tenth of a second; listed in the kinds' order, the compass left out")
    func countsAndOrder() {
        var log = SensorIncidentLog()
        #expect(log.report.isEmpty)
        log.record("light lost: iio:device1 was removed", of: .light, uptime: 3.04)
        log.record("iio:device0: buffered capture delivered nothing for 2.0 s; opening it again", of: .accelerometer, uptime: 5.26)
        log.record("resumed from sleep: opened again", of: .compass, uptime: 6)
        log.record("light sensor iio:device1 reads again", of: .light, uptime: 7.91)
        #expect(log.report == [
            .init(sensor: "accelerometer", count: 1, last: "iio:device0: buffered capture delivered nothing for 2.0 s; opening it again", at: 5.3),
            .init(sensor: "light", count: 2, last: "light sensor iio:device1 reads again", at: 7.9),
        ])
    }
}
