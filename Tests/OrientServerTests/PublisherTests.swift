import OrientCore
import OrientProtocol
import OrientSampleSource
import OrientServer
import Testing

/// A sink that records what it was sent, and can pretend its socket is full.
final class RecordingSink: SubscriberSink {
    var isWritable = true
    private(set) var lines: [String] = []

    func send(_ line: String) {
        lines.append(contentsOf: line.split(separator: "\n").map(String.init))
    }

    var messages: [ServerMessage] { lines.map { try! ServerMessage.decode(Array($0.utf8)) } }
    var events: [ServerMessage] { messages.filter { $0.event != nil } }
}

extension Publisher {
    /// A control change proposed and applied at once, as the control queue does once the state is saved.
    func control(_ change: ControlChange, id: RequestID? = nil) -> String {
        switch proposedState(change, id: id) {
        case .success(let state): apply(state, id: id)
        case .failure(let refusal): ServerMessage.error(refusal).line
        }
    }
}

@Suite("Publisher")
struct PublisherTests {
    private func publisher(mask: InterfaceOrientationMask = .all, state: PersistentState = PersistentState()) -> Publisher {
        Publisher(settings: .init(configuredMask: mask), persistent: state)
    }

    private func reply(_ line: String) -> ServerMessage { try! ServerMessage.decode(Array(line.split(separator: "\n")[0].utf8)) }

    @Test("Each subscriber's interface is resolved under the system mask ∩ its own mask")
    func perSubscriberMasks() {
        let p = publisher()
        let all = RecordingSink()
        let landscape = RecordingSink()
        let portrait = RecordingSink()
        _ = p.subscribe(all, settings: SubscriptionSettings(), id: nil)
        _ = p.subscribe(landscape, settings: SubscriptionSettings(mask: .landscape, preferred: .landscapeLeft), id: nil)
        _ = p.subscribe(portrait, settings: SubscriptionSettings(mask: .portrait), id: nil)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        for (time, device) in [(1.0, DeviceOrientation.portrait), (2, .landscapeLeft), (3, .faceUp), (4, .portraitUpsideDown)] {
            p.deviceChanged(device, time: time)
        }
        #expect(all.events.compactMap(\.interface).suffix(4) == ["portrait", "landscape-right", "landscape-right", "portrait-upside-down"])
        #expect(landscape.events.compactMap(\.interface).suffix(4) == ["landscape-left", "landscape-right", "landscape-right", "landscape-right"])
        #expect(Set(portrait.events.compactMap(\.interface).suffix(4)) == ["portrait"])
        #expect(p.systemState.interface == .portraitUpsideDown)
    }

    @Test("changes=interface wakes a subscriber only when its interface changes")
    func interfaceOnly() {
        let p = publisher()
        let sink = RecordingSink()
        _ = p.subscribe(sink, settings: SubscriptionSettings(changes: .interface), id: nil)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        p.deviceChanged(.portrait, time: 1)
        p.deviceChanged(.faceUp, time: 2)
        p.deviceChanged(.faceDown, time: 3)
        p.deviceChanged(.landscapeRight, time: 4)
        #expect(sink.events.compactMap(\.interface) == ["portrait", "landscape-left"])
    }

    @Test("A subscriber whose socket is full gets only the newest state when it drains")
    func coalescing() {
        let p = publisher()
        let slow = RecordingSink()
        let fast = RecordingSink()
        _ = p.subscribe(slow, settings: SubscriptionSettings(), id: nil)
        _ = p.subscribe(fast, settings: SubscriptionSettings(), id: nil)
        slow.isWritable = false
        let before = slow.lines.count
        for i in 0..<1000 {
            p.deviceChanged(i % 2 == 0 ? .portrait : .landscapeLeft, time: Double(i))
        }
        #expect(slow.lines.count == before, "nothing queued while the socket is full")
        #expect(fast.events.count == 1000, "others are not held back")
        slow.isWritable = true
        p.writable(slow)
        #expect(slow.lines.count == before + 1)
        #expect(slow.events.last?.t == 999)
        #expect(slow.events.last?.device == "landscape-left")
    }

    @Test("Changing a subscription resolves at once: the reply, and an event when the interface changes")
    func resubscribe() {
        let p = publisher()
        let sink = RecordingSink()
        _ = p.subscribe(sink, settings: SubscriptionSettings(), id: nil)
        p.deviceChanged(.portrait, time: 1)
        let lines = p.subscribe(sink, settings: SubscriptionSettings(mask: .landscape, preferred: .landscapeRight), id: .number(9))
        let parts = lines.split(separator: "\n").map { try! ServerMessage.decode(Array($0.utf8)) }
        #expect(parts.count == 2)
        #expect(parts[0].id == .number(9) && parts[0].interface == "landscape-right")
        #expect(parts[1].event == "orientation" && parts[1].interface == "landscape-right")
        let unchanged = p.subscribe(sink, settings: SubscriptionSettings(mask: .landscape, preferred: .landscapeRight), id: nil)
        #expect(unchanged.split(separator: "\n").count == 1)
    }

    @Test("Autorotation off holds one client's interface; others follow the device")
    func perClientLock() {
        let p = publisher()
        let held = RecordingSink()
        let free = RecordingSink()
        p.deviceChanged(.portrait, time: 1)
        _ = p.subscribe(held, settings: SubscriptionSettings(autorotate: false), id: nil)
        _ = p.subscribe(free, settings: SubscriptionSettings(), id: nil)
        p.deviceChanged(.landscapeLeft, time: 2)
        #expect(held.events.last?.interface == "portrait")
        #expect(free.events.last?.interface == "landscape-right")
    }

    @Test("The system lock holds every interface; unlocking catches up")
    func systemLock() {
        let p = publisher()
        let sink = RecordingSink()
        _ = p.subscribe(sink, settings: SubscriptionSettings(), id: nil)
        p.deviceChanged(.portrait, time: 1)
        #expect(reply(p.control(.locked(true))).locked == true)
        p.deviceChanged(.landscapeLeft, time: 2)
        #expect(sink.events.last?.interface == "portrait")
        #expect(sink.events.last?.locked == true)
        _ = p.control(.locked(false))
        #expect(sink.events.last?.interface == "landscape-right")
    }

    @Test("A mask that would strand a subscriber is refused and nothing changes")
    func strandingMask() {
        let p = publisher()
        let sink = RecordingSink()
        _ = p.subscribe(sink, settings: SubscriptionSettings(mask: .portrait), id: nil)
        let refused = reply(p.control(.mask(.landscape), id: .number(1)))
        #expect(refused.error?.code == "empty-mask")
        #expect(refused.id == .number(1))
        #expect(p.systemMask == .all)
        #expect(reply(p.control(.mask([.portrait, .landscapeLeft]))).mask == "portrait|landscape-left")
        #expect(reply(p.control(.mask(nil))).mask == "all", "default restores the configured mask")
    }

    @Test("A subscriber's empty effective mask is refused")
    func emptySubscription() {
        let p = publisher(mask: .portrait)
        let sink = RecordingSink()
        #expect(reply(p.subscribe(sink, settings: SubscriptionSettings(mask: .landscape), id: nil)).error?.code == "empty-mask")
        #expect(reply(p.status(id: nil)).statusReport?.subscribers == 0, "not subscribed")
    }

    @Test("Losing the sensor makes the device unknown and keeps the interface; the restored lock applies at start")
    func sensorLoss() {
        let p = publisher(state: PersistentState(locked: true, mask: .allButUpsideDown))
        #expect(p.systemState.locked && p.systemMask == .allButUpsideDown)
        p.deviceChanged(.landscapeRight, time: 1)
        p.take(.lost(reason: "unplugged"), of: .accelerometer)
        #expect(p.systemState.device == .unknown)
        #expect(p.systemState.interface == .landscapeLeft)
        #expect(p.systemState.sensor == .unavailable)
    }

    @Test("status says where the sensor's matrix came from, and whether it repairs a mirrored one: not with mount-repair off")
    func mountMatrixInStatus() throws {
        let mirrored = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, -1")
        let rotation = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        for (matrix, repair, repaired) in [(mirrored, true, true), (mirrored, false, false), (rotation, true, false)] {
            let bench = ConvertibleBench(publisher: .init(mountRepair: repair))
            bench.send(.opened(SensorDescription(
                id: "iio:device0", name: "accel_3d", mode: .polled, mountMatrix: matrix,
                mountMatrixSource: .sysfs(attribute: "in_accel_mount_matrix"))))
            let sensor = try #require(reply(bench.publisher.status(id: nil)).statusReport?.sensor)
            #expect(sensor.mountMatrixSource == "sysfs in_accel_mount_matrix")
            #expect(sensor.mountMatrixRepaired == repaired, "\(matrix.text), mount-repair \(repair)")
        }
    }

    @Test("A reload whose mask would strand a subscriber keeps the old mask and says why")
    func reloadStranding() {
        let p = publisher()
        let sink = RecordingSink()
        _ = p.subscribe(sink, settings: SubscriptionSettings(mask: .portrait), id: nil)
        let problem = p.reconfigure(.init(configuredMask: .landscape))
        #expect(problem?.contains("would leave 1 subscriber(s)") == true)
        #expect(p.systemMask == .all)
        #expect(p.reconfigure(.init(configuredMask: .allButUpsideDown)) == nil)
        #expect(p.systemMask == .allButUpsideDown)
    }

    @Test("A reloaded preferred orientation reaches the system view (what get reports)")
    func reloadPreferred() {
        let p = publisher()
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        p.deviceChanged(.faceUp, time: 1)
        #expect(p.systemState.interface == .portrait, "lying flat from the start: the first allowed")
        // Landscape only, preferring landscape-left: portrait is no longer allowed and the device decides nothing.
        p.reconfigure(.init(configuredMask: .landscape, preferred: .landscapeLeft))
        #expect(p.systemState.interface == .landscapeLeft, "not the fallback order's landscape-right")
    }

    @Test("A tilt goes to the D-Bus facade's snapshot only: subscribers are sent nothing for it; closing keeps it; losing the sensor makes it undefined")
    func tiltNotOnTheSocket() {
        var tilts: [AccelerometerTilt] = []
        var states = 0
        let p = Publisher(
            settings: .init(), persistent: PersistentState(), version: "test",
            dependencies: .init(
                clock: ManualClock(), systemStateChanged: { _ in states += 1 },
                sensorsChanged: { let tilt = $0.orientation?.tilt ?? .undefined; if tilts.last != tilt { tilts.append(tilt) } }))
        let sink = RecordingSink()
        _ = p.subscribe(sink, settings: SubscriptionSettings(), id: nil)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        p.deviceChanged(.portrait, time: 1)
        let (lines, statesBefore) = (sink.lines.count, states)
        for tilt in [AccelerometerTilt.tiltedUp, .tiltedUp, .faceDown] {
            p.take(.accelerometerRead(AccelerometerUpdate(tilt: tilt, time: 2)), of: .accelerometer)
        }
        #expect(tilts == [.undefined, .tiltedUp, .faceDown], "each change once")
        #expect(sink.lines.count == lines, "no event for a subscriber: \(sink.lines)")
        #expect(states == statesBefore, "the system state's followers are not woken either")
        p.take(.stopped, of: .accelerometer)
        #expect(tilts.last == .faceDown, "closed when the last claimant leaves: the last tilt is kept, as iio-sensor-proxy keeps it")
        p.take(.lost(reason: "unplugged"), of: .accelerometer)
        #expect(tilts.last == .undefined)
    }

    @Test("A first sample that moves the device, the tilt and the posture at once tells the facade one snapshot, with all of it")
    func oneSnapshotPerSample() {
        var snapshots: [SensorSnapshot] = []
        var states: [OrientationState] = []
        let p = Publisher(
            settings: .init(), persistent: PersistentState(), version: "test",
            dependencies: .init(
                clock: ManualClock(), systemStateChanged: { states.append($0) }, sensorsChanged: { snapshots.append($0) }))
        p.take(.present(true), of: .accelerometer)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        let (told, statesBefore) = (snapshots.count, states.count)
        p.take(.accelerometerRead(
            AccelerometerUpdate(device: .landscapeLeft, tilt: .tiltedUp, first: .landscapeLeft, time: 1)), of: .accelerometer)
        #expect(snapshots.count == told + 1, "one snapshot, not one per part of the change")
        #expect(snapshots.last?.orientation == .init(device: .landscapeLeft, tilt: .tiltedUp))
        #expect(snapshots.last?.sensors[.accelerometer]?.readSinceStart == true)
        #expect(states.count == statesBefore + 1 && states.last?.device == .landscapeLeft)
        p.take(.accelerometerRead(AccelerometerUpdate(tilt: .tiltedUp, time: 2)), of: .accelerometer)
        #expect(snapshots.count == told + 1, "the same tilt again is no change")
    }

    @Test("The facade's snapshot: one store for every kind; told once per change; the compass's heading kept for it alone")
    func sensorsSnapshot() {
        var snapshots: [SensorSnapshot] = []
        let p = Publisher(
            settings: .init(), persistent: PersistentState(), version: "test", readingKinds: [.light, .compass],
            dependencies: .init(clock: ManualClock(), sensorsChanged: { snapshots.append($0) }))
        #expect(snapshots.count == 1, "told at start")
        #expect(snapshots.last?.presenceKnown == false, "nobody has said whether the sensors are there")
        p.take(.present(true), of: .accelerometer)
        p.take(.present(true), of: .light)
        p.take(.present(true), of: .compass)
        #expect(snapshots.last?.presenceKnown == true)
        let told = snapshots.count
        p.take(.present(true), of: .light)
        #expect(snapshots.count == told, "no change, nothing told")
        p.take(.read(.compass(heading: 93)), of: .compass)
        #expect(snapshots.last?.sensors[.compass]?.last == .reading(.compass(heading: 93)))
        p.take(.read(.light(level: 40, unit: .lux)), of: .light)
        #expect(snapshots.last?.sensors[.light]?.last == .reading(.light(level: 40, unit: .lux)))
        p.take(.noSensor(reason: "cannot open the light sensor iio:device1: busy"), of: .light)
        #expect(snapshots.last?.sensors[.light]?.present == true, "plugged in as udev says, though it failed to open")
        p.take(.present(false), of: .light)
        #expect(snapshots.last?.sensors[.light]?.present == false)
        let sink = RecordingSink()
        _ = p.get(nil, readings: [.light], from: sink, id: nil)
        #expect(p.sensors.sensors.keys.sorted() == [.accelerometer, .light, .compass])
        p.take(.present(false), of: .accelerometer)
        #expect(snapshots.last?.sensors[.accelerometer]?.present == false)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        #expect(snapshots.last?.sensors[.accelerometer]?.present == true, "one that opens is plugged in, whatever udev said last")
        #expect(snapshots.last?.sensors[.accelerometer]?.readSinceStart == false)
        p.take(.accelerometerRead(AccelerometerUpdate(first: .portrait, time: 0)), of: .accelerometer)
        #expect(snapshots.last?.sensors[.accelerometer]?.readSinceStart == true)
        #expect(snapshots.last?.sensors[.accelerometer]?.firstReadings == 1)
        #expect(snapshots.last?.orientation?.device == .portrait, "the first reading shows until the classifier commits")
        p.deviceChanged(.landscapeLeft, time: 1)
        #expect(snapshots.last?.orientation?.device == .landscapeLeft)
        p.take(.stopped, of: .accelerometer)
        #expect(snapshots.last?.sensors[.accelerometer]?.readSinceStart == false, "released: no reading since a start")
        #expect(snapshots.last?.orientation?.device == .landscapeLeft, "released, not lost: the orientation stays")
        p.take(.lost(reason: "read failed"), of: .accelerometer)
        #expect(snapshots.last?.sensors[.accelerometer]?.present == true, "failing, still plugged in")
        #expect(snapshots.last?.orientation == nil, "failing: no orientation until it reads again")
    }

    @Test("A sensor lost while plugged in has read nothing since: a claim then waits for its next reading, of every kind alike")
    func lostReadsNothingSince() {
        var snapshots: [SensorSnapshot] = []
        let p = Publisher(
            settings: .init(), persistent: PersistentState(), version: "test", readingKinds: [.light],
            dependencies: .init(clock: ManualClock(), sensorsChanged: { snapshots.append($0) }))
        p.take(.present(true), of: .light)
        p.take(.started, of: .light)
        p.take(.read(.light(level: 40, unit: .lux)), of: .light)
        #expect(snapshots.last?.sensors[.light]?.readSinceStart == true)
        p.take(.lost(reason: "read failed: EIO"), of: .light)
        let light = snapshots.last?.sensors[.light]
        #expect(light?.present == true && light?.last == nil, "plugged in as udev says; no level")
        #expect(light?.readSinceStart == false, "nothing read since it was lost: a claim must not read the 0 lux of nothing")
        p.take(.read(.light(level: 30, unit: .lux)), of: .light)
        #expect(snapshots.last?.sensors[.light]?.firstReadings == 2, "read again: a waiting claim is answered")
        // The accelerometer, the same way.
        p.take(.present(true), of: .accelerometer)
        p.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        p.take(.accelerometerRead(AccelerometerUpdate(first: .portrait, time: 0)), of: .accelerometer)
        p.take(.lost(reason: "read failed: EIO"), of: .accelerometer)
        #expect(snapshots.last?.sensors[.accelerometer]?.readSinceStart == false)
        #expect(snapshots.last?.sensors[.accelerometer]?.present == true)
    }
}
