import Logging
import OrientCore
@testable import OrientSensors
import Testing

/// The udev hub in-process, on whatever udev this machine has: the hot-plug paths through it are tested under
/// umockdev by the daemon's suites (`LightSensorTests`, `SideBySideLifecycleTests`, `LiveSensorTests`).
@Suite("Udev hub")
struct UdevHubTests {
    /// One hub for the suite, as a process has one: its thread lives as long as the process.
    static let hub = UdevHub(threadName: "test-udev")

    @Test("Its one monitor covers every subsystem an accelerometer, a sensor driver or the panel is found in")
    func coversEverySubsystem() throws {
        let subsystems = Set(UdevHub.subsystems)
        #expect(Set(UdevSession.accelerometerSubsystems).isSubset(of: subsystems))
        #expect(subsystems.contains("drm"), "the panel's connectors")
        let sources = ReadingSources.all(directory: try FolderDeviceDirectory(), logger: Logger(label: "test"))
            .compactMap { $0 as? PolledReadingSource }
        #expect(sources.map(\.kind) == SensorKind.allCases.filter { !ReadingSources.drivers(for: $0).isEmpty })
        for source in sources {
            #expect(Set(source.subsystems).isSubset(of: subsystems), "\(source.kind): \(source.subsystems)")
        }
    }

    @Test("Queries from many threads at once are each answered on the hub's thread")
    func concurrentQueries() async {
        let counts = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<16 { group.addTask { Self.hub.query { $0.devices().count } } }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(counts.count == 16 && counts.allSatisfy { $0 != nil })
        #expect(Set(counts).count == 1, "one session, one answer: \(counts)")
    }

    @Test("A presence stream yields what its observer sees at once, on the hub's thread, and a subscription starts empty")
    func observerAndSubscription() async {
        let stream = Self.hub.changes(of: ["drm"], unavailable: nil) { session, events in
            events.isEmpty ? session.drmConnectors().count : -1
        }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == Self.hub.query { $0.drmConnectors().count })
        let subscription = Self.hub.subscribe(["iio"])
        #expect(subscription?.take() == [])
        subscription.map(Self.hub.unsubscribe)
    }
}
