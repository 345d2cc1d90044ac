import OrientConfiguration
import OrientDBus
import Testing

@Suite("The D-Bus facade as a configured part")
struct FacadePartTests {
    @Test("It reads the natural orientation alone, and takes it while running")
    func reads() throws {
        #expect(try SliceCheck.settingsRead(by: SensorProxyService.self) == ["natural-orientation"])
        #expect(SensorProxyService.reads == SettingsRead(whileRunning: ["natural-orientation"]))
    }
}
