import OrientCore
import OrientProtocol
@testable import OrientctlCommands
import Testing

@Suite("orientctl's text for the one-value sensors")
struct StatusTextTests {
    @Test("status: a proximity sensor's line names its near level; a light sensor's its last level and unit")
    func readingSensorLines() {
        let proximity = StatusReport.ReadingSensor(
            kind: "proximity", present: true, open: true, id: "iio:device2", name: "prox", foundBy: "channel in_proximity_raw",
            interval: 0.7, details: [.nearLevel: 100], value: .proximity(near: false))
        #expect(Orientctl.Status.describe(proximity)
            == "proximity: present, open: prox (iio:device2), found by channel in_proximity_raw, every 0.7 s, near level 100, last read far")
        let light = StatusReport.ReadingSensor(
            kind: "light", present: true, open: false, id: "iio:device1", name: "iio:device1", interval: 0.8,
            value: .light(level: 0.25, unit: .vendor))
        #expect(Orientctl.Status.describe(light) == "light: present, closed: iio:device1, every 0.8 s, last read 0.25 vendor")
        #expect(Orientctl.Status.describe(StatusReport.ReadingSensor(kind: "compass", present: nil)) == "compass: not known yet")
    }

    @Test("get and monitor: a reading as a person reads it, absent and unread included")
    func readingStates() {
        #expect(StateText.describe(ReadingState(kind: .light, present: true, value: .light(level: 50, unit: .lux))) == "50 lux")
        #expect(StateText.describe(ReadingState(kind: .proximity, present: true, value: .proximity(near: true))) == "near")
        #expect(StateText.describe(ReadingState(kind: .light, present: true)) == "not read yet")
        #expect(StateText.describe(ReadingState(kind: .proximity, present: false)) == "none")
    }
}
