import OrientCore
import OrientProtocol
import OrientSampleSource
import OrientServer
import Testing

/// A convertible's posture, tablet mode and hinge angle, from sensor events through the pipeline to subscribers,
/// and rotate-in: out of tablet mode every interface is held upright for the keyboard.
@Suite("Publishing a convertible's posture")
struct ConvertiblePublishingTests {
    typealias Bench = ConvertibleBench

    @Test("Posture, tablet mode and hinge angle reach subscribers as events; a still hinge sends nothing more")
    func publishes() throws {
        let bench = Bench()
        let all = bench.subscriber()
        let interfaceOnly = bench.subscriber(SubscriptionSettings(changes: .interface))
        bench.open()
        #expect(all.events.last?.posture == "unknown" && all.events.last?.tabletMode == nil)

        bench.hold(Bench.portrait, hinge: 110)
        let laptop = try #require(all.events.last)
        #expect(laptop.posture == "laptop")
        #expect(laptop.tabletMode == false)
        #expect(laptop.hingeAngle == 110)
        #expect(laptop.device == "portrait" && laptop.interface == "portrait")
        #expect(bench.publisher.systemState.hinge == HingeState(posture: .laptop, tabletMode: false, hingeAngle: 110))
        let settled = all.events.count
        bench.hold(Bench.portrait, hinge: 110.4)
        #expect(all.events.count == settled, "less than a degree from the published angle is no change")

        bench.fold(Bench.portrait, from: 110, to: 300)
        let folded = try #require(all.events.last)
        #expect(folded.tabletMode == true)
        // Within the whole-degree deadband of the angle held.
        #expect(abs(try #require(folded.hingeAngle) - 300) <= 1)
        #expect(folded.posture == "stand", "beyond flat with the keyboard face down")
        #expect(folded.t == bench.publisher.systemState.time)
        // Each of the 25 samples of the fold moved the angle by more than a degree: an event each. None of them
        // changed the interface.
        #expect(all.events.count >= settled + 25)
        #expect(interfaceOnly.events.map(\.interface) == ["portrait"], "changes=interface: only the first commit")
        #expect(all.events.allSatisfy { $0.locked == false })
    }

    @Test("Out of tablet mode every view is held upright; each client's own mask, preferred and autorotation still apply")
    func heldUpright() throws {
        let bench = Bench()
        let free = bench.subscriber()
        let landscape = RecordingSink()
        let pinned = bench.subscriber(SubscriptionSettings(autorotate: false))
        _ = bench.publisher.subscribe(
            landscape, settings: SubscriptionSettings(mask: .landscape, preferred: .landscapeLeft), id: nil)
        bench.open()

        // In tablet mode the screen follows the device.
        bench.hold(Bench.portrait, hinge: 300)
        bench.hold(Bench.landscapeLeft, hinge: 300)
        #expect(free.events.last?.interface == "landscape-right")
        #expect(landscape.events.last?.interface == "landscape-right")
        #expect(pinned.events.last?.interface == "portrait", "its own autorotation is off")
        #expect(free.events.last?.tabletMode == true, "an unreadable hinge keeps tablet mode")
        bench.hold(Bench.landscapeRight, hinge: 300)
        #expect(landscape.events.last?.interface == "landscape-left")

        // Opened as a laptop (the hinge is read upright), then the whole device turned on its side.
        bench.fold(Bench.portrait, from: 300, to: 110)
        #expect(free.events.last?.tabletMode == false)
        bench.hold(Bench.landscapeLeft, hinge: 110)
        #expect(free.events.last?.device == "landscape-left")
        #expect(free.events.last?.interface == "portrait", "held upright for the keyboard")
        #expect(free.events.last?.locked == false, "holding is not a lock")
        #expect(landscape.events.last?.interface == "landscape-left", "upright is not in its mask: it keeps its own")
        #expect(pinned.events.last?.interface == "portrait")
        #expect(bench.publisher.systemState.interface == .portrait)
        #expect(bench.publisher.holdsUpright)

        // Views that arrive now start upright too: a subscriber, and get with settings.
        let late = RecordingSink()
        let reply = try ServerMessage.decode(Array(
            bench.publisher.subscribe(late, settings: SubscriptionSettings(), id: .number(1)).utf8.dropLast()))
        #expect(reply.interface == "portrait" && reply.device == "landscape-left" && reply.tabletMode == false)
        let asked = try #require(bench.publisher.get(SubscriptionSettings(preferred: .landscapeRight), from: RecordingSink(), id: nil))
        #expect(try ServerMessage.decode(Array(asked.utf8.dropLast())).interface == "portrait")

        // Folded back: released, every view follows the device again.
        bench.fold(Bench.portrait, from: 110, to: 300)
        bench.hold(Bench.landscapeLeft, hinge: 300)
        #expect(free.events.last?.interface == "landscape-right")
        #expect(landscape.events.last?.interface == "landscape-right")
        #expect(late.events.last?.interface == "landscape-right")
        #expect(pinned.events.last?.interface == "portrait")
    }

    @Test("The system lock holds on top of the hold, in both directions")
    func systemLock() throws {
        let bench = Bench()
        let sink = bench.subscriber()
        bench.open()
        bench.hold(Bench.portrait, hinge: 300)
        bench.hold(Bench.landscapeLeft, hinge: 300)
        #expect(sink.events.last?.interface == "landscape-right")
        _ = bench.publisher.control(.locked(true))
        // Opening to a laptop would turn the screen upright, but the lock holds it.
        bench.fold(Bench.portrait, from: 300, to: 110)
        #expect(sink.events.last?.tabletMode == false)
        #expect(sink.events.last?.interface == "landscape-right")
        #expect(sink.events.last?.locked == true)
        #expect(bench.publisher.systemState.interface == .landscapeRight)

        // Held upright as a laptop and locked there: folding to a tablet and turning it changes nothing.
        let other = Bench()
        let second = other.subscriber()
        other.open()
        other.hold(Bench.portrait, hinge: 110)
        _ = other.publisher.control(.locked(true))
        other.fold(Bench.portrait, from: 110, to: 300)
        other.hold(Bench.landscapeLeft, hinge: 300)
        #expect(second.events.last?.tabletMode == true && second.events.last?.device == "landscape-left")
        #expect(second.events.last?.interface == "portrait")
        _ = other.publisher.control(.locked(false))
        #expect(second.events.last?.interface == "landscape-right", "unlocked in tablet mode: follows the device")
    }

    @Test("rotate-in = always: the screen turns as a laptop too, and tablet mode is still published")
    func rotateInAlways() {
        let bench = Bench(publisher: .init(rotateIn: .always), pipeline: .always)
        let sink = bench.subscriber()
        bench.open()
        bench.hold(Bench.portrait, hinge: 110)
        bench.hold(Bench.landscapeLeft, hinge: 110)
        #expect(sink.events.last?.tabletMode == false)
        #expect(sink.events.last?.interface == "landscape-right")
        #expect(!bench.publisher.holdsUpright)
    }

    @Test("A reload that changes rotate-in holds or releases the views at once")
    func reloadRotateIn() {
        let bench = Bench()
        let sink = bench.subscriber()
        bench.open()
        bench.hold(Bench.portrait, hinge: 110)
        bench.hold(Bench.landscapeLeft, hinge: 110)
        #expect(sink.events.last?.interface == "portrait")
        bench.publisher.reconfigure(.init(rotateIn: .always))
        #expect(sink.events.last?.interface == "landscape-right")
        bench.publisher.reconfigure(.init(rotateIn: .tabletMode))
        #expect(sink.events.last?.interface == "portrait")
    }

    @Test("Losing the base sensor: posture, tablet mode and angle unknown, and the display alone turns the screen")
    func baseLost() throws {
        let bench = Bench()
        let sink = bench.subscriber()
        bench.open()
        bench.hold(Bench.portrait, hinge: 110)
        bench.hold(Bench.landscapeLeft, hinge: 110)
        #expect(sink.events.last?.interface == "portrait")
        bench.send(.baseLost(reason: "unplugged"))
        let lost = try #require(sink.events.last)
        #expect(lost.posture == "unknown" && lost.tabletMode == nil && lost.hingeAngle == nil)
        #expect(lost.interface == "landscape-right")
        #expect(lost.sensor == "available")
        // The display's samples go on alone; the device still turns the screen.
        bench.hold(Bench.portrait, hinge: nil)
        #expect(sink.events.last?.interface == "portrait")
        #expect(sink.events.last?.posture == "unknown")
        // Base readings again: the posture is read anew.
        bench.hold(Bench.portrait, hinge: 110)
        #expect(sink.events.last?.posture == "laptop")
    }

    @Test("A get on a convertible waits for the posture as well as the orientation: its interface depends on it")
    func getWaitsForPosture() throws {
        let bench = Bench()
        let sink = RecordingSink()
        #expect(bench.publisher.get(nil, from: sink, id: nil) == nil)
        bench.open()
        // Tilted on a lap: the display alone reads landscape, committed within 0.1 s; the posture takes longer.
        bench.hold(Bench.landscapeLeft, hinge: nil, seconds: 0.2)
        #expect(bench.publisher.systemState.device == .landscapeLeft)
        #expect(sink.lines.isEmpty, "no answer before the posture: it would have turned the screen of a laptop")
        bench.hold(Bench.portrait, hinge: 110)
        let reply = try #require(sink.messages.first)
        #expect(sink.lines.count == 1)
        #expect(reply.posture == "laptop" && reply.tabletMode == false && reply.fresh == true)
        #expect(reply.interface == "portrait")
        #expect(bench.wanted == [true, false])
    }

    @Test("A get on a convertible whose base sensor goes away answers with the display's orientation at once")
    func getAfterBaseLost() throws {
        let bench = Bench()
        let sink = RecordingSink()
        #expect(bench.publisher.get(nil, from: sink, id: nil) == nil)
        bench.open()
        bench.hold(Bench.landscapeLeft, hinge: nil, seconds: 0.2)
        #expect(sink.lines.isEmpty)
        bench.send(.baseLost(reason: "unplugged"))
        let reply = try #require(sink.messages.first)
        #expect(reply.device == "landscape-left" && reply.posture == "unknown" && reply.fresh == true)
    }

    @Test("Without a base sensor nothing changes: posture unknown, tablet mode and angle null, nothing held")
    func singleSensor() throws {
        let bench = Bench()
        let sink = bench.subscriber()
        bench.open(base: nil)
        bench.hold(Bench.portrait, hinge: nil)
        bench.hold(Bench.landscapeLeft, hinge: nil)
        #expect(sink.events.map(\.interface) == ["unknown", "portrait", "landscape-right"])
        #expect(sink.events.allSatisfy { $0.posture == "unknown" && $0.tabletMode == nil && $0.hingeAngle == nil })
    }

    @Test("A sensor that goes away takes the posture with it; one opened without a base sensor has none")
    func sensorLoss() {
        let bench = Bench()
        bench.open()
        bench.hold(Bench.portrait, hinge: 110)
        #expect(bench.publisher.systemState.hinge.posture == .laptop)
        bench.send(.lost(reason: "gone"))
        #expect(bench.publisher.systemState.hinge == .unknown)
        bench.open()
        bench.hold(Bench.portrait, hinge: 110)
        #expect(bench.publisher.systemState.hinge.tabletMode == false)
        bench.open(base: nil)
        #expect(bench.publisher.systemState.hinge == .unknown)
        #expect(!bench.publisher.holdsUpright)
    }
}
