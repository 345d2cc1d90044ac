import OrientCore
import PropertyBased
import Testing

/// Invariants of the resolver over random devices, masks, current and preferred orientations.
@Suite("Resolver invariants")
struct PropertyTests {
    static let masks = Gen.optionSet(of: InterfaceOrientationMask.all).filter { !$0.isEmpty }
    static let interfaces = Gen<InterfaceOrientation>.case
    static let devices = Gen<DeviceOrientation>.case

    @Test("The interface orientation is in the effective mask, or unknown only when nothing is known yet")
    func inMask() async {
        await propertyCheck(count: 2000, input: Self.devices, Self.masks, Self.interfaces, Self.interfaces, Gen.bool) {
            device, mask, current, preferred, locked in
            let result = try! OrientationResolver.resolve(
                device: device, mask: mask, current: current, preferred: preferred, locked: locked)
            if result == .unknown {
                #expect(device == .unknown && current == .unknown)
            } else {
                #expect(mask.allows(result))
            }
        }
    }

    @Test("A lock never changes an orientation the mask still allows")
    func lockHolds() async {
        await propertyCheck(count: 2000, input: Self.devices, Self.masks, Self.interfaces, Self.interfaces) {
            device, mask, current, preferred in
            guard mask.allows(current) else { return }
            let result = try! OrientationResolver.resolve(
                device: device, mask: mask, current: current, preferred: preferred, locked: true)
            #expect(result == current)
        }
    }

    @Test("Face up and face down never change an allowed orientation")
    func flatKeeps() async {
        await propertyCheck(count: 2000, input: Gen.element(of: [DeviceOrientation.faceUp, .faceDown]), Self.masks,
                            Self.interfaces, Self.interfaces, Gen.bool) {
            device, mask, current, preferred, locked in
            guard mask.allows(current) else { return }
            let result = try! OrientationResolver.resolve(
                device: device!, mask: mask, current: current, preferred: preferred, locked: locked)
            #expect(result == current)
        }
    }

    @Test("A tracker's interface stays in its effective mask through any sequence of events")
    func trackerSequences() async {
        let events = Gen.int(in: 0...3).array(of: 1...40)
        await propertyCheck(count: 300, input: events, Self.devices.array(of: 40), Self.masks.array(of: 40)) {
            kinds, devices, masks in
            var tracker = try! InterfaceOrientationTracker()
            for (index, kind) in kinds.enumerated() {
                switch kind {
                case 0: tracker.update(device: devices[index])
                case 1: tracker.setSystemLocked(!tracker.systemLocked)
                case 2: _ = try? tracker.setSystemMask(masks[index])
                default: _ = try? tracker.setClient(mask: masks[index], preferred: nil, autorotates: true)
                }
                #expect(tracker.interface == .unknown || tracker.effectiveMask.allows(tracker.interface))
                #expect(!tracker.effectiveMask.isEmpty)
            }
        }
    }
}
