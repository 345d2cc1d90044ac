import OrientConfiguration
import Testing

@testable import orientd

/// The daemon's parts, together: every setting is read by one of them, so a reload always has an answer for it.
@Suite("The daemon's configured parts")
struct DaemonPartsTests {
    @Test("Every setting is read by at least one part, and no part reads a setting the table does not have")
    func everySettingRead() {
        let read = Set(Daemon.partTypes.flatMap { $0.reads.all })
        #expect(read == Set(DaemonSetting.all.map(\.name)))
    }

    @Test("No setting is read at start by one part and while running by another")
    func oneWay() {
        let atStart = Set(Daemon.partTypes.flatMap { $0.reads.atStart })
        let whileRunning = Set(Daemon.partTypes.flatMap { $0.reads.whileRunning })
        #expect(atStart.isDisjoint(with: whileRunning))
    }

    @Test("The wiring's start-only choices are exactly what its slice depends on")
    func startupChoices() throws {
        #expect(Set(try SliceCheck.settingsRead(by: StartupChoices.self)) == Set(StartupChoices.reads.all))
    }
}
