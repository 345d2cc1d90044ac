import Logging
import NIOCore
import NIOPosix
import OrientConfiguration
import OrientCore
import OrientProtocol
import OrientSampleSource
import OrientServer
import Testing

/// The server's configured parts: each reads exactly the settings it declares, and applying a slice changes
/// what the part does.
@Suite("Configured parts of the server")
struct ConfiguredPartsTests {
    @Test("Each part's declared settings are exactly those its slice depends on")
    func declaredReads() throws {
        #expect(Set(try SliceCheck.settingsRead(by: ConnectionPolicyPart.self)) == Set(ConnectionPolicyPart.reads.all))
        #expect(Set(try SliceCheck.settingsRead(by: PublisherPart.self)) == Set(PublisherPart.reads.all))
        #expect(Set(try SliceCheck.settingsRead(by: SensorService<ServedAccelerometer>.self)) == Set(ServedAccelerometer.reads.all))
        #expect(Set(try SliceCheck.settingsRead(by: SensorService<ServedLight>.self)) == Set(ServedLight.reads.all))
        #expect(Set(try SliceCheck.settingsRead(by: SensorService<ServedReading>.self)) == Set(ServedReading.reads.all))
    }

    @Test("The connection policy takes control-group, request-timeout and max-clients, refitting only a changed max-clients")
    func connectionPolicy() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let policy = try await loop.submit { NIOLoopBound(ConnectionPolicy(), eventLoop: loop) }.get()
        let part = ConnectionPolicyPart(policy, logger: Logger(label: "test"))
        var configuration = DaemonConfiguration()
        configuration.controlGroup = "wheel"
        configuration.requestTimeout = 2.5
        configuration.maxClients = 7
        let answer = await part.configure(RunSettings(configuration, panel: .portraitUntilTold))
        #expect(answer.refusal == nil && answer.reads.whileRunning.contains("max-clients"))
        let (clients, timeout, group_) = try await loop.submit {
            (policy.value.maximumClients, policy.value.requestTimeout, policy.value.authorizer.group)
        }.get()
        #expect(clients == 7)
        #expect(timeout == .milliseconds(2500))
        #expect(group_ == "wheel")
        try await group.shutdownGracefully()
    }

    @Test("The publisher takes the mask, keeps it when it would strand a subscriber, and says which it kept")
    func publisher() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let sink = RecordingSink()
        let publisher = try await loop.submit {
            let publisher = Publisher(clock: ManualClock())
            _ = publisher.subscribe(sink, settings: SubscriptionSettings(mask: .portrait), id: nil)
            return NIOLoopBound(publisher, eventLoop: loop)
        }.get()
        let part = PublisherPart(publisher, freshWait: 1)
        var configuration = DaemonConfiguration()
        configuration.systemMask = .all
        configuration.sampling = .always
        #expect(await part.configure(RunSettings(configuration, panel: .portraitUntilTold)).refusal == nil)
        configuration.systemMask = .landscape
        let answer = await part.configure(RunSettings(configuration, panel: .portraitUntilTold))
        #expect(answer.refusal?.settings == ["mask"], "the portrait-only subscriber would have nothing to show")
        let (mask, sampling) = try await loop.submit { (publisher.value.systemMask, publisher.value.settings.sampling) }.get()
        #expect(mask == .all)
        #expect(sampling == .always)
        try await group.shutdownGracefully()
    }
}
