import Logging
import OrientConfiguration
import OrientCore
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

    /// The reload's log line as the running daemon builds it from its parts' answers, every setting changed at once.
    @Test("A reload changing every setting names each as applied or as waiting for the next start; only the start-up choices wait")
    func reloadEverySetting() throws {
        let started = DaemonConfiguration()
        var next = started
        for setting in DaemonSetting.all { try setting.apply(setting.example, to: &next) }
        let answers = Daemon.partTypes.map { PartAnswer(part: "\($0)", reads: $0.reads) }
        let report = ReloadReport(started: started, running: started, next: next, answers: answers)
        #expect(report.unread.isEmpty && report.refused.isEmpty, "\(report.summary)")
        #expect(Set(report.applied).isDisjoint(with: report.waiting))
        #expect(Set(report.applied + report.waiting) == Set(DaemonSetting.all.map(\.name)))
        #expect(Set(report.waiting) == ["socket", "socket-mode", "state-directory", "device", "dbus"])
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
        // Long enough that a busy machine does not take the check below past it.
        let deadline = StopDeadline(bound: .seconds(2), logger: Logger(label: "test")) { status in
            exits.withLock { $0.append(status) }
        }
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let stuck = deadline.tracking(Stuck(release: release), as: "stuck one")
        let quick = deadline.tracking(Quick(), as: "quick one")
        let running = Task { try await stuck.run() }
        try await quick.run()
        #expect(exits.withLock { $0 }.isEmpty, "no verdict before the bound")
        for _ in 0..<250 where exits.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(exits.withLock { $0 } == [75])
        releasing.yield()
        try await running.value
    }
}

/// Settings handed to the parts: a reload and a panel change that come together are applied one after the other.
@Suite("Running configuration")
struct RunningConfigurationTests {
    /// Records each natural orientation it is configured with; the apply numbered `holdAt` waits for `hold`.
    final class RecordingPart: ConfiguredPart {
        static let reads = SettingsRead(whileRunning: [\.naturalOrientation])
        static func slice(of settings: RunSettings) -> NaturalOrientation { settings.panel.natural }

        let applied = Mutex<[NaturalOrientation]>([])
        let holdAt: Int
        let hold: AsyncStream<Void>

        init(holdAt: Int = 0, hold: AsyncStream<Void> = AsyncStream { $0.finish() }) {
            self.holdAt = holdAt
            self.hold = hold
        }

        func apply(_ slice: NaturalOrientation) async -> Refusal? {
            let count = applied.withLock { $0.append(slice); return $0.count }
            if count == holdAt { for await _ in hold { break } }
            return nil
        }
    }

    static func panel(_ natural: NaturalOrientation) -> PanelDetection {
        PanelDetection(natural: natural, source: .panel(connector: "card0-eDP-1", width: 1, height: 1, mounting: nil))
    }

    @Test("A panel change that comes while a reload waits on a part is applied after it, to every part")
    func reloadAndPanelInOrder() async throws {
        let (hold, release) = AsyncStream.makeStream(of: Void.self)
        // The first part's second apply (the reload's) waits until released.
        let slow = RecordingPart(holdAt: 2, hold: hold)
        let other = RecordingPart()
        let running = RunningConfiguration(
            started: DaemonConfiguration(), detected: Self.panel(.portrait), traceNatural: nil, parts: [slow, other],
            logger: Logger(label: "test")
        ) { DaemonConfiguration() }
        await running.start()
        let applying = Task { await running.run() }
        defer { applying.cancel() }

        running.requestReload()
        for _ in 0..<500 where slow.applied.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(2)) }
        running.panelDetected(Self.panel(.landscape))
        try await Task.sleep(for: .milliseconds(50))
        #expect(slow.applied.withLock { $0 } == [.portrait, .portrait], "nothing else while the reload is applied")
        #expect(other.applied.withLock { $0 } == [.portrait])
        release.yield()
        for _ in 0..<500 where other.applied.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(slow.applied.withLock { $0 } == [.portrait, .portrait, .landscape])
        #expect(other.applied.withLock { $0 } == [.portrait, .portrait, .landscape], "the reload's pass, then the panel's")
    }
}
