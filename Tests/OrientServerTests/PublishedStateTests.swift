@testable import OrientCore
import OrientProtocol
import OrientSampleSource
@testable import OrientServer
import Testing

/// The publisher's state and its rules, as plain values: no subscribers, sockets or timers.
@Suite("Published state")
struct PublishedStateTests {
    private static let tablet = SensorDescription(id: "t", name: "t", mode: .replay)
    private static let convertible = SensorDescription(id: "t", name: "t", mode: .replay, baseMountMatrix: .identity)

    private func posture(_ posture: Posture?, tabletMode: Bool?? = nil, time: Double = 1) -> PostureEngine.Change {
        PostureEngine.Change(time: time, posture: posture, tabletMode: tabletMode, hingeAngle: nil)
    }

    @Test("Fresh only while the sensor reads and has committed since it opened; a get waits only when it can help")
    func freshness() {
        var state = PublishedState(settings: .init(freshWait: 0.5), persistent: PersistentState())
        #expect(!state.isFresh && state.freshWait == 0.5, "nothing read yet")
        _ = state.sensorOpened(Self.tablet)
        #expect(!state.isFresh, "opened is not yet committed")
        _ = state.sensorChanged(device: .portrait, posture: nil, time: 1)
        #expect(state.isFresh && state.freshWait == nil)
        state.sensorReleased()
        #expect(!state.isFresh && state.device == .portrait, "closed: kept, but old")
        _ = state.sensorOpened(Self.tablet)
        #expect(!state.isFresh, "a commit from before the sensor closed does not count")
        state.sourceEnded()
        #expect(!state.isFresh && state.freshWait == nil, "a replay that ended: nothing fresh will come")
        let noWait = PublishedState(settings: .init(freshWait: nil), persistent: PersistentState())
        #expect(noWait.freshWait == nil)
    }

    @Test("On a convertible the posture is waited for as well, unless the base sensor goes away")
    func convertibleFreshness() {
        var state = PublishedState(settings: .init(), persistent: PersistentState())
        _ = state.sensorOpened(Self.convertible)
        _ = state.sensorChanged(device: .landscapeLeft, posture: nil, time: 1)
        #expect(!state.isFresh)
        _ = state.sensorChanged(device: nil, posture: posture(.laptop), time: 2)
        #expect(state.isFresh && state.time == 2)
        _ = state.sensorOpened(Self.convertible)
        _ = state.sensorChanged(device: .portrait, posture: nil, time: 3)
        #expect(!state.isFresh && state.hinge.posture == .laptop, "the last posture is kept, but not fresh")
        _ = state.baseLost()
        #expect(state.isFresh && state.hinge == .unknown && state.sensorDescription?.base == nil)
    }

    @Test("With a kernel hinge sensor the posture is waited for too; losing it forgets the posture and unnames it, and the base stays named")
    func hingeSensor() {
        let hinge = HingeSensorDescription(id: "iio:device4", name: "hinge")
        var described = Self.convertible
        described.hinge = hinge
        var state = PublishedState(settings: .init(), persistent: PersistentState())
        var hingeOnly = Self.tablet
        hingeOnly.hinge = hinge
        _ = state.sensorOpened(hingeOnly)
        _ = state.sensorChanged(device: .portrait, posture: nil, time: 1)
        #expect(!state.isFresh, "the hinge sensor's posture not read yet")
        _ = state.sensorChanged(device: nil, posture: posture(.laptop), time: 2)
        #expect(state.isFresh)
        _ = state.sensorOpened(described)
        _ = state.sensorChanged(device: nil, posture: posture(.tablet, tabletMode: .some(true)), time: 3)
        _ = state.hingeLost()
        #expect(state.hinge == .unknown && state.sensorDescription?.hinge == nil)
        #expect(state.sensorDescription?.base != nil, "the base accelerometer is still read")
    }

    @Test("Out of tablet mode under rotate-in = tablet-mode every view is held upright; the change says so to the views")
    func holdUpright() {
        var state = PublishedState(settings: .init(), persistent: PersistentState())
        _ = state.sensorOpened(Self.convertible)
        #expect(!state.holdsUpright, "tablet mode unknown")
        let laptop = state.sensorChanged(device: .landscapeLeft, posture: posture(.laptop, tabletMode: .some(false)), time: 1)
        #expect(laptop == ViewUpdate(device: .landscapeLeft, heldUpright: .init(held: true, upright: .portrait)))
        #expect(state.holdsUpright && state.systemState.interface == .portrait, "the system's view is held too")
        let hinge = state.sensorChanged(device: nil, posture: posture(nil), time: 2)
        #expect(hinge == ViewUpdate(), "nothing for the views when tablet mode did not change")
        let always = state.reconfigure(.init(rotateIn: .always))
        #expect(always == ViewUpdate(heldUpright: .init(held: false, upright: .portrait), systemMask: .all))
        #expect(state.systemState.interface == .landscapeRight)
        _ = state.reconfigure(.init(rotateIn: .tabletMode))
        let lost = state.sensorLost(.unavailable)
        #expect(lost == ViewUpdate(device: .unknown, heldUpright: .init(held: false, upright: .portrait)), "no base sensor, no hold")
        #expect(state.sensor == .unavailable && state.hinge == .unknown)
    }

    @Test("On a landscape panel a convertible is held as installed, and each state carries its rotation")
    func landscapePanel() {
        let panel = PanelDetection(natural: .landscape, source: .setting)
        var state = PublishedState(settings: .init(panel: panel), persistent: PersistentState())
        _ = state.sensorOpened(Self.convertible)
        #expect(state.systemState.rotation == nil, "no interface yet")
        // The lid upside down as a laptop (bottom-up on a landscape panel is landscape-right): held as installed.
        let laptop = state.sensorChanged(
            device: .landscapeRight, posture: posture(.laptop, tabletMode: .some(false)), time: 1)
        #expect(laptop.heldUpright == .init(held: true, upright: .landscapeLeft))
        #expect(state.systemState.interface == .landscapeRight && state.systemState.rotation == 0)
        _ = state.reconfigure(.init(rotateIn: .always, panel: panel))
        #expect(state.systemState.interface == .landscapeLeft && state.systemState.rotation == 180)
        _ = state.sensorChanged(device: .portrait, posture: nil, time: 2)
        #expect(state.systemState.rotation == 90, "left edge up")
        let landscapeOnly = state.state(seenBy: try! state.clientView(SubscriptionSettings(mask: .landscape)))
        #expect(landscapeOnly.interface == .landscapeRight && landscapeOnly.rotation == 0,
                "a landscape-only client arriving now is shown landscape as installed")
    }

    @Test("A sensor never found is none; one lost after it was seen is unavailable")
    func sensorLoss() {
        var state = PublishedState(settings: .init(), persistent: PersistentState())
        _ = state.sensorLost(.none)
        #expect(state.sensor == .none)
        _ = state.sensorOpened(Self.tablet)
        _ = state.sensorLost(.none)
        #expect(state.sensor == .unavailable)
    }

    @Test("Control: the lock goes to the views only when it changes; the mask in force always, the configured one by default")
    func control() {
        var state = PublishedState(settings: .init(configuredMask: .allButUpsideDown), persistent: PersistentState())
        let locked = state.proposed(.locked(true))
        #expect(locked == PersistentState(locked: true))
        #expect(state.apply(locked) == ViewUpdate(systemLocked: true, systemMask: .allButUpsideDown))
        #expect(state.systemState.locked)
        #expect(state.apply(state.proposed(.mask(.landscape))) == ViewUpdate(systemMask: .landscape))
        #expect(state.apply(state.proposed(.mask(nil))) == ViewUpdate(systemMask: .allButUpsideDown))
    }

    @Test("A new client's view starts as the others are: fed the device, held upright, locked with the system")
    func clientView() throws {
        var state = PublishedState(settings: .init(), persistent: PersistentState(locked: false))
        _ = state.sensorOpened(Self.convertible)
        _ = state.sensorChanged(device: .landscapeLeft, posture: posture(.laptop, tabletMode: .some(false)), time: 1)
        let view = try state.clientView(SubscriptionSettings(mask: .all))
        #expect(state.state(seenBy: view).interface == .portrait && state.state(seenBy: view).device == .landscapeLeft)
        let landscape = try state.clientView(SubscriptionSettings(mask: .landscape))
        #expect(state.state(seenBy: landscape).interface == .landscapeRight, "upright is not in its mask")
        #expect(state.state(seenBy: landscape).mask == .landscape)
        _ = state.apply(state.proposed(.mask(.portrait)))
        #expect(throws: EmptyMaskError.self) { try state.clientView(SubscriptionSettings(mask: .landscape)) }
    }
}
