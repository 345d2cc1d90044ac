import OrientCore
import OrientProtocol
import OrientSampleSource
@testable import OrientServer
import Testing

/// The tablet-mode switch's state as the publisher decides it and tells the subscribers that keep the switch:
/// `none` unless one should exist, then `on` in tablet mode and `off` otherwise.
@Suite("Publishing the tablet-mode switch's state")
struct TabletModeSwitchPublishingTests {
    typealias Bench = ConvertibleBench
    typealias Machine = TabletModeSwitchPolicy.Machine

    static let convertible = Machine(postureSource: "display and base accelerometers (iio:device1, iio:device0)", switches: [])
    static let vbtn = TabletModeSwitchPolicy.Switch(name: "Intel Virtual Buttons", node: "/dev/input/event6")
    static let keeperSettings = SubscriptionSettings(changes: .none, tabletModeSwitch: true)

    /// A keeper subscribed to `bench`'s publisher; what the reply brings after it is recorded as sent, as the
    /// connection writes it.
    private func subscribeKeeper(_ bench: Bench) -> RecordingSink {
        let sink = RecordingSink()
        sink.send(bench.publisher.subscribe(sink, settings: Self.keeperSettings, id: nil))
        return sink
    }

    /// What a keeper was sent: the switch's states, in order; it must never be sent an orientation event.
    private func states(_ sink: RecordingSink) -> [TabletModeSwitchState] {
        #expect(!sink.events.contains { $0.event == "orientation" }, "changes none: \(sink.lines)")
        return sink.messages.compactMap { message in
            guard case .tabletModeSwitch(let state) = message else { return nil }
            return state
        }
    }

    @Test("A keeper hears off after its reply, on when folded into a tablet, off when opened; one line each")
    func foldAndOpen() throws {
        let bench = Bench()
        bench.publisher.machineChanged(Self.convertible)
        let keeper = subscribeKeeper(bench)
        #expect(keeper.lines.count == 2, "the reply, then the state: \(keeper.lines)")
        #expect(keeper.lines.last == #"{"event":"tablet-mode-switch","state":"off"}"#)
        bench.open()
        bench.hold(Bench.portrait, hinge: 110)
        bench.fold(Bench.portrait, from: 110, to: 300)
        bench.fold(Bench.portrait, from: 300, to: 110)
        #expect(states(keeper) == [.off, .on, .off])
        #expect(bench.decisions == [
            TabletModeSwitchDecision(
                wanted: true,
                reason: "display and base accelerometers (iio:device1, iio:device0), and no other tablet-mode switch"),
        ])
    }

    @Test("Cleared when the base is lost, and when the sensor is; a subscriber that did not ask hears nothing of it")
    func clearedWhenLost() {
        let bench = Bench()
        bench.publisher.machineChanged(Self.convertible)
        let keeper = subscribeKeeper(bench)
        let other = bench.subscriber()
        bench.open()
        bench.fold(Bench.portrait, from: 110, to: 300)
        bench.send(.baseLost(reason: "unplugged"))
        bench.hold(Bench.portrait, hinge: nil)
        #expect(states(keeper) == [.off, .on, .off], "no posture without the base")
        bench.open()
        bench.fold(Bench.portrait, from: 250, to: 300)
        bench.send(.lost(reason: "read failed"))
        #expect(states(keeper) == [.off, .on, .off, .on, .off])
        #expect(!other.messages.contains { if case .tabletModeSwitch = $0 { true } else { false } })
    }

    @Test("The machine's own switch, plugged in while folded: none at once, and the switch back when it goes")
    func machineSwitch() {
        let bench = Bench()
        bench.publisher.machineChanged(Self.convertible)
        let keeper = subscribeKeeper(bench)
        bench.open()
        bench.fold(Bench.portrait, from: 110, to: 300)
        bench.publisher.machineChanged(Machine(postureSource: Self.convertible.postureSource, switches: [Self.vbtn]))
        bench.publisher.machineChanged(Self.convertible)
        #expect(states(keeper) == [.off, .on, .none, .on])
        #expect(bench.decisions.map(\.wanted) == [true, false, true])
        #expect(bench.decisions[1].reason == "the machine has its own: Intel Virtual Buttons (/dev/input/event6)")
    }

    @Test("Reloaded: no makes it none, auto brings the state back; a reload that changes nothing sends nothing")
    func reloaded() {
        let bench = Bench()
        bench.publisher.machineChanged(Self.convertible)
        let keeper = subscribeKeeper(bench)
        bench.open()
        bench.fold(Bench.portrait, from: 110, to: 300)
        var settings = bench.publisher.settings
        bench.publisher.reconfigure(settings)
        settings.tabletModeSwitch = .no
        bench.publisher.reconfigure(settings)
        settings.tabletModeSwitch = .auto
        bench.publisher.reconfigure(settings)
        #expect(states(keeper) == [.off, .on, .none, .on])
        #expect(bench.decisions.last?.wanted == true && bench.decisions.count == 3)
    }

    @Test("A keeper keeps the accelerometer open while a switch may be wanted, and not once none should exist")
    func demand() {
        let bench = Bench()
        // Kept to the end: the publisher holds its subscribers' sinks unowned, as connections outlive them.
        let keeper = subscribeKeeper(bench)
        #expect(bench.demands.last?.subscribers == 1, "undecided: the sensor must open to tell")
        bench.publisher.machineChanged(Machine(postureSource: nil, switches: []))
        #expect(bench.demands.last?.subscribers == 0, "nothing tells the posture")
        bench.publisher.machineChanged(Self.convertible)
        #expect(bench.demands.last?.subscribers == 1)
        let watcher = bench.subscriber()
        bench.publisher.machineChanged(Machine(postureSource: nil, switches: [Self.vbtn]))
        #expect(bench.demands.last?.subscribers == 1, "an orientation subscriber still counts")
        withExtendedLifetime((keeper, watcher)) {}
    }

    @Test("A keeper whose socket is full gets only the newest state once it drains")
    func newestWhenDrained() {
        let bench = Bench()
        bench.publisher.machineChanged(Self.convertible)
        let keeper = subscribeKeeper(bench)
        bench.open()
        keeper.isWritable = false
        bench.fold(Bench.portrait, from: 110, to: 300)
        bench.publisher.machineChanged(Machine(postureSource: nil, switches: []))
        #expect(states(keeper) == [.off])
        keeper.isWritable = true
        bench.publisher.writable(keeper)
        #expect(states(keeper) == [.off, .none])
    }

    @Test("A replayed trace, with no udev to ask: its base readings decide once the sensor opens; yes needs neither")
    func replayed() {
        let bench = Bench()
        let keeper = subscribeKeeper(bench)
        #expect(bench.decisions.isEmpty)
        bench.open()
        #expect(bench.decisions.map(\.reason) == ["the base readings beside t, and no other tablet-mode switch"])
        let tablet = Bench()
        let alone = subscribeKeeper(tablet)
        tablet.open(base: nil)
        #expect(tablet.decisions.map(\.wanted) == [false])
        let forced = Bench(publisher: Publisher.Settings(tabletModeSwitch: .yes))
        #expect(forced.decisions == [TabletModeSwitchDecision(wanted: true, reason: "tablet-mode-switch = yes")])
        #expect(states(keeper) == [.none, .off], "none in its reply's wake, until the sensor told")
        #expect(states(alone) == [.none])
    }

    @Test("A replayed trace with a hinge column counts as one with a base: its angles decide, and fold it to on")
    func replayedHinge() {
        let bench = Bench()
        let keeper = subscribeKeeper(bench)
        bench.open(base: nil, hinge: HingeSensorDescription(id: "t", name: "trace"))
        #expect(bench.decisions == [
            TabletModeSwitchDecision(wanted: true, reason: "the hinge angles beside t, and no other tablet-mode switch"),
        ])
        bench.hold(Bench.portrait, kernel: .degrees(110))
        bench.hold(Bench.portrait, kernel: .degrees(300))
        #expect(states(keeper) == [.none, .off, .on])

        // With a base too, the hinge is named, as the machine's decision names it first.
        let both = Bench()
        let other = subscribeKeeper(both)
        both.open(hinge: HingeSensorDescription(id: "t", name: "trace"))
        #expect(both.decisions.map(\.reason) == ["the hinge angles beside t, and no other tablet-mode switch"])
        withExtendedLifetime(other) {}
    }

    @Test("A live sensor that opens before udev has shown the machine decides nothing: the machine's own switch, shown next, wins")
    func liveSensorWaitsForTheMachine() {
        let bench = Bench()
        let keeper = subscribeKeeper(bench)
        bench.open(mode: .buffered)
        bench.hold(Bench.portrait, hinge: 110)
        #expect(bench.decisions.isEmpty, "a live sensor's description says nothing of the machine's switches")
        bench.publisher.machineChanged(Machine(postureSource: Self.convertible.postureSource, switches: [Self.vbtn]))
        #expect(bench.decisions.map(\.wanted) == [false])
        #expect(states(keeper) == [.none], "never on or off: the machine has its own")
    }

    @Test("status says the state and why")
    func status() throws {
        let bench = Bench()
        bench.publisher.machineChanged(Machine(postureSource: nil, switches: [Self.vbtn]))
        let line = bench.publisher.status(id: nil)
        #expect(line.contains(#""tablet-mode-switch":{"state":"none","reason":"the machine has its own: Intel Virtual Buttons (/dev/input/event6)"}"#),
                "\(line)")
        guard case .status(_, let report) = try ServerMessage.decode(Array(line.utf8.dropLast())) else {
            Issue.record("not a status: \(line)")
            return
        }
        #expect(report.tabletModeSwitch == .init(state: .none, reason: "the machine has its own: Intel Virtual Buttons (/dev/input/event6)"))
    }
}
