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

extension ConfiguredPartsTests {
    /// At each start: a sensor whose udev matrix is mirrored and turns it half a turn, holding iio-sensor-proxy's
    /// reference reading, (0, -g, 0) in its own frame, for a second.
    final class UpsideDownSensor: SampleSource {
        func start(_ settings: LiveSettings<CaptureSettings>, _ deliver: @escaping @Sendable (SensorEvent) -> NextRead)
            -> CaptureHandle
        {
            let udev = try! MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, -1")
            _ = deliver(.opened(SensorDescription(
                id: "iio:device0", name: "accel", mode: .buffered, mountMatrix: udev, mountMatrixSource: .udevProperty)))
            for step in 0..<50 { _ = deliver(.sample(AccelSample(time: Double(step) / 50, x: 0, y: -9.80665, z: 0))) }
            let handle = CaptureHandle {}
            handle.markFinished()
            return handle
        }
    }

    @Test("Each reload's mount-matrix, mount-repair and natural-orientation reach the sensor opened again and status; removed, their defaults come back")
    func sensorSettingsAtReload() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let publisher = try await loop.submit { NIOLoopBound(Publisher(clock: ManualClock()), eventLoop: loop) }.get()
        let publisherPart = PublisherPart(publisher, freshWait: 1)
        let sensor = ServedAccelerometer(
            source: UpsideDownSensor(), eventLoop: loop, publisher: publisher, logger: Logger(label: "test"))
        // The file at each reload; what the sensor then reads (nil: not checked), where its matrix comes from, whether
        // status says it is repaired, and the natural orientation status names.
        let steps: [(file: String, device: DeviceOrientation?, source: String, repaired: Bool, natural: String)] = [
            ("mount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1", .landscapeLeft, "configuration", false, "portrait"),
            ("", .portraitUpsideDown, "udev ACCEL_MOUNT_MATRIX", true, "portrait"),
            ("mount-repair = no", .portraitUpsideDown, "udev ACCEL_MOUNT_MATRIX", false, "portrait"),
            ("mount-matrix = 0, -1, 0; 1, 0, 0; 0, 0, 1", .landscapeRight, "configuration", false, "portrait"),
            ("natural-orientation = landscape", nil, "udev ACCEL_MOUNT_MATRIX", true, "landscape"),
            ("", .portraitUpsideDown, "udev ACCEL_MOUNT_MATRIX", true, "portrait"),
        ]
        for step in steps {
            let configuration = try ConfigurationFile.parse(step.file, file: "orientd.conf")
            let settings = RunSettings(configuration, detected: .portraitUntilTold, traceNatural: nil)
            #expect(await publisherPart.configure(settings).refusal == nil)
            // As the sensor service does at a reload that changes the sensor's settings: stopped, then opened again.
            await sensor.stopped()
            _ = sensor.start(ServedAccelerometer.slice(of: settings)) {}
            let (device, line) = try await loop.submit {
                (publisher.value.systemState.device, publisher.value.status(id: nil))
            }.get()
            let status = try ServerMessage.decode(Array(line.utf8))
            if let expected = step.device { #expect(device == expected, "\(step.file)") }
            #expect(status.sensorInfo?.mountMatrixSource == step.source, "\(step.file)")
            #expect(status.sensorInfo?.mountMatrixRepaired == step.repaired, "\(step.file)")
            #expect(status.statusReport?.naturalOrientation == step.natural, "\(step.file)")
        }
        try await group.shutdownGracefully()
    }
}
