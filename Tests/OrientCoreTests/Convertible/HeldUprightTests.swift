import OrientCore
import Testing

@Suite("Interface held upright out of tablet mode")
struct HeldUprightTests {
    @Test("Holding turns the interface to portrait and keeps it there whatever the device does")
    func holds() throws {
        var tracker = try InterfaceOrientationTracker()
        tracker.update(device: .landscapeLeft)
        #expect(tracker.interface == .landscapeRight)
        let changed = tracker.setHeldUpright(true)
        #expect(changed)
        #expect(tracker.interface == .portrait)
        tracker.update(device: .portraitUpsideDown)
        #expect(tracker.interface == .portrait)
        let released = tracker.setHeldUpright(false)
        #expect(released)
        #expect(tracker.interface == .portraitUpsideDown, "released, it follows the device again")
    }

    @Test("A client that does not autorotate keeps its own orientation when held")
    func clientLockWins() throws {
        var tracker = try InterfaceOrientationTracker(autorotates: false, interface: .landscapeLeft)
        tracker.update(device: .landscapeRight)
        let changed = tracker.setHeldUpright(true)
        #expect(!changed)
        #expect(tracker.interface == .landscapeLeft)
    }

    @Test("A mask without portrait holds what the mask allows")
    func maskWithoutPortrait() throws {
        var tracker = try InterfaceOrientationTracker(clientMask: .landscape)
        tracker.update(device: .landscapeLeft)
        tracker.setHeldUpright(true)
        #expect(tracker.interface == .landscapeRight)
        tracker.update(device: .landscapeRight)
        #expect(tracker.interface == .landscapeRight)
    }
}
