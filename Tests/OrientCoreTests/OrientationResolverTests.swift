import OrientCore
import Testing

@Suite("Resolver rules")
struct OrientationResolverTests {
    private func resolve(
        _ device: DeviceOrientation, _ mask: InterfaceOrientationMask, current: InterfaceOrientation = .unknown,
        preferred: InterfaceOrientation? = nil, locked: Bool = false
    ) throws -> InterfaceOrientation {
        try OrientationResolver.resolve(device: device, mask: mask, current: current, preferred: preferred, locked: locked)
    }

    @Test("No reading and nothing drawn yet: unknown")
    func unknownStart() throws {
        #expect(try resolve(.unknown, .all) == .unknown)
        #expect(try resolve(.unknown, .landscape, preferred: .landscapeRight) == .unknown)
    }

    @Test("Rule 1: a lock holds the current orientation while the mask allows it")
    func lockHolds() throws {
        #expect(try resolve(.landscapeLeft, .all, current: .portrait, locked: true) == .portrait)
        // The mask no longer allows it: the other rules choose, and the lock then holds that.
        #expect(try resolve(.faceUp, .landscape, current: .portrait, locked: true) == .landscapeRight)
        #expect(try resolve(.landscapeLeft, .landscape, current: .portrait, locked: true) == .landscapeRight)
    }

    @Test("Rule 2: an upright device gets its own orientation, landscapes crossed over")
    func uprightWins() throws {
        #expect(try resolve(.landscapeLeft, .all, current: .portrait) == .landscapeRight)
        #expect(try resolve(.landscapeRight, .all, current: .portrait) == .landscapeLeft)
        #expect(try resolve(.portraitUpsideDown, .all, current: .portrait) == .portraitUpsideDown)
        #expect(try resolve(.portrait, .all) == .portrait)
    }

    @Test("Rule 3: face up/down, unknown, or a disallowed orientation keep the current one")
    func keepCurrent() throws {
        #expect(try resolve(.faceUp, .all, current: .landscapeLeft) == .landscapeLeft)
        #expect(try resolve(.faceDown, .all, current: .portrait) == .portrait)
        #expect(try resolve(.unknown, .all, current: .landscapeRight) == .landscapeRight)
        #expect(try resolve(.portraitUpsideDown, .allButUpsideDown, current: .landscapeLeft) == .landscapeLeft)
    }

    @Test("Rule 4: the preferred orientation when nothing else decides")
    func preferred() throws {
        #expect(try resolve(.faceUp, .landscape, current: .portrait, preferred: .landscapeLeft) == .landscapeLeft)
        #expect(try resolve(.faceUp, .all, preferred: .landscapeRight) == .landscapeRight)
        // A preferred orientation outside the mask is ignored.
        #expect(try resolve(.faceUp, .landscape, preferred: .portrait) == .landscapeRight)
    }

    @Test("Rule 5: the first allowed of portrait, landscape-right, landscape-left, upside down",
          arguments: [
              (InterfaceOrientationMask.all, InterfaceOrientation.portrait),
              (.landscape, .landscapeRight),
              (.landscapeLeft, .landscapeLeft),
              (.portraitUpsideDown, .portraitUpsideDown),
              ([.landscapeLeft, .portraitUpsideDown] as InterfaceOrientationMask, InterfaceOrientation.landscapeLeft),
          ])
    func fallback(mask: InterfaceOrientationMask, expected: InterfaceOrientation) throws {
        #expect(try resolve(.faceUp, mask) == expected)
    }

    @Test("An empty mask is an error, not a crash")
    func emptyMask() {
        #expect(throws: EmptyMaskError.self) { try resolve(.portrait, []) }
    }
}

@Suite("Per-client interface tracker")
struct InterfaceOrientationTrackerTests {
    @Test("Follows the device, keeps its orientation while flat, and reports changes")
    func follows() throws {
        var tracker = try InterfaceOrientationTracker()
        #expect(tracker.interface == .unknown)
        let changed1 = tracker.update(device: .landscapeLeft)
        #expect(changed1)
        #expect(tracker.interface == .landscapeRight)
        let changed2 = tracker.update(device: .faceUp)
        #expect(!changed2)
        #expect(tracker.interface == .landscapeRight)
        let changed3 = tracker.update(device: .portrait)
        #expect(changed3)
        #expect(tracker.interface == .portrait)
    }

    @Test("A device lying flat at start-up gets the preferred or first allowed orientation")
    func flatAtStart() throws {
        var preferring = try InterfaceOrientationTracker(clientMask: .landscape, preferred: .landscapeLeft)
        preferring.update(device: .faceUp)
        #expect(preferring.interface == .landscapeLeft)
        var plain = try InterfaceOrientationTracker(systemMask: .allButUpsideDown)
        plain.update(device: .faceDown)
        #expect(plain.interface == .portrait)
    }

    @Test("The system lock and the client's own autorotation switch both hold the interface")
    func locks() throws {
        var tracker = try InterfaceOrientationTracker()
        tracker.update(device: .portrait)
        tracker.setSystemLocked(true)
        tracker.update(device: .landscapeLeft)
        #expect(tracker.interface == .portrait)
        let changed4 = tracker.setSystemLocked(false)
        #expect(changed4, "unlocking catches up with the device")
        #expect(tracker.interface == .landscapeRight)

        try tracker.setClient(mask: .all, preferred: nil, autorotates: false)
        tracker.update(device: .portrait)
        #expect(tracker.interface == .landscapeRight)
    }

    @Test("A client mask change is resolved at once against the current device orientation")
    func maskChange() throws {
        var tracker = try InterfaceOrientationTracker()
        tracker.update(device: .portrait)
        let changed5 = try tracker.setClient(mask: .landscape, preferred: .landscapeLeft, autorotates: true)
        #expect(changed5)
        #expect(tracker.interface == .landscapeLeft)
        let changed6 = try tracker.setClient(mask: .all, preferred: nil, autorotates: true)
        #expect(changed6)
        #expect(tracker.interface == .portrait)
    }

    @Test("An empty effective mask is refused and nothing changes")
    func emptyEffective() throws {
        var tracker = try InterfaceOrientationTracker(clientMask: .portrait)
        tracker.update(device: .portrait)
        let before = tracker
        #expect(throws: EmptyMaskError.self) { try tracker.setSystemMask(.landscape) }
        #expect(tracker == before)
        #expect(throws: EmptyMaskError.self) { try InterfaceOrientationTracker(systemMask: .landscape, clientMask: .portrait) }
    }
}
