import Logging
import OrientConfiguration
import ServiceLifecycle
import Synchronization
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

/// The bound on a stop, with the process's exit recorded instead of taken.
@Suite("Stop deadline")
struct StopDeadlineTests {
    /// Returns at once.
    struct Quick: Service {
        func run() async throws {}
    }

    /// Ignores graceful shutdown and cancellation alike until `release` is signalled.
    struct Stuck: Service {
        let release: AsyncStream<Void>
        func run() async throws {
            for await _ in release { return }
        }
    }

    @Test("Once a service ends, one that does not return within the bound is named, and the process exits 75")
    func stuckService() async throws {
        let exits = Mutex<[Int32]>([])
        let deadline = StopDeadline(bound: .milliseconds(200), logger: Logger(label: "test")) { status in
            exits.withLock { $0.append(status) }
        }
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let stuck = deadline.tracking(Stuck(release: release), as: "stuck one")
        let quick = deadline.tracking(Quick(), as: "quick one")
        let running = Task { try await stuck.run() }
        try await quick.run()
        #expect(exits.withLock { $0 }.isEmpty, "no verdict before the bound")
        for _ in 0..<100 where exits.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(exits.withLock { $0 } == [75])
        releasing.yield()
        try await running.value
    }
}
