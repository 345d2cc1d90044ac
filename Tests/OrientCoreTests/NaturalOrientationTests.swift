import OrientCore
import Testing

@Suite("Natural orientation")
struct NaturalOrientationTests {
    /// The table of the landscape-panel issue and notes/natural-orientation-and-compositors.md, row by row:
    /// pose, portrait panel (device, interface), landscape panel (device, interface), rotation.
    static let table: [(PanelPose, DeviceOrientation, InterfaceOrientation, DeviceOrientation, InterfaceOrientation, Int)] = [
        (.normal, .portrait, .portrait, .landscapeLeft, .landscapeRight, 0),
        (.leftUp, .landscapeRight, .landscapeLeft, .portrait, .portrait, 90),
        (.bottomUp, .portraitUpsideDown, .portraitUpsideDown, .landscapeRight, .landscapeLeft, 180),
        (.rightUp, .landscapeLeft, .landscapeRight, .portraitUpsideDown, .portraitUpsideDown, 270),
    ]

    @Test("Each pose's names and rotation on a portrait and a landscape panel", arguments: 0..<4)
    func names(row: Int) {
        let (pose, portraitDevice, portraitInterface, landscapeDevice, landscapeInterface, rotation) = Self.table[row]
        #expect(NaturalOrientation.portrait.deviceOrientation(for: pose) == portraitDevice)
        #expect(NaturalOrientation.landscape.deviceOrientation(for: pose) == landscapeDevice)
        #expect(portraitDevice.interfaceOrientation == portraitInterface)
        #expect(landscapeDevice.interfaceOrientation == landscapeInterface)
        #expect(NaturalOrientation.portrait.pose(showing: portraitInterface) == pose)
        #expect(NaturalOrientation.landscape.pose(showing: landscapeInterface) == pose)
        #expect(pose.rotation == rotation)
        #expect(NaturalOrientation.landscape.renamed(fromPanelFrame: portraitDevice) == landscapeDevice)
        #expect(NaturalOrientation.portrait.renamed(fromPanelFrame: portraitDevice) == portraitDevice)
    }

    @Test("Face up, face down and unknown keep their names and have no pose; an unknown interface no rotation")
    func flat() {
        for natural in NaturalOrientation.allCases {
            for device in [DeviceOrientation.faceUp, .faceDown, .unknown] {
                #expect(natural.renamed(fromPanelFrame: device) == device)
                #expect(natural.pose(of: device) == nil)
            }
            #expect(natural.pose(showing: .unknown) == nil)
        }
    }

    @Test("Wider than tall is landscape; square and taller are portrait")
    func fromMode() {
        #expect(NaturalOrientation(width: 1920, height: 1080) == .landscape)
        #expect(NaturalOrientation(width: 800, height: 1280) == .portrait)
        #expect(NaturalOrientation(width: 1000, height: 1000) == .portrait)
    }

    @Test("Each panel's names are a quarter turn of the other's, keeping the crossover")
    func quarterTurn() {
        for pose in PanelPose.allCases {
            let onLandscape = NaturalOrientation.landscape.deviceOrientation(for: pose)
            // A landscape panel upright as installed is a portrait device with its right edge up, and so on round.
            let turned = PanelPose.allCases[(PanelPose.allCases.firstIndex(of: pose)! + 3) % 4]
            #expect(NaturalOrientation.portrait.deviceOrientation(for: turned) == onLandscape)
        }
    }
}

@Suite("The engine on a landscape panel")
struct LandscapeEngineTests {
    private let g = 9.80665

    /// The committed device and interface orientation after a second of `reading`.
    private func settle(_ engine: inout ConvertibleEngine, _ reading: Vector3, from start: Double) throws -> OrientationEngine.Change? {
        var last: OrientationEngine.Change?
        for i in 0..<50 {
            if let change = try engine.feed(AccelSample(time: start + Double(i) / 50, acceleration: reading)).orientation {
                last = change
            }
        }
        return last
    }

    @Test("Each upright pose gets the landscape panel's names; face up keeps the interface", arguments: [
        NaturalOrientation.portrait, .landscape,
    ])
    func poses(natural: NaturalOrientation) throws {
        var configuration = EngineConfiguration()
        configuration.natural = natural
        var engine = try configuration.makeEngine(displayMatrix: .identity, baseMatrix: nil)
        let readings: [(PanelPose, Vector3)] = [
            (.normal, Vector3(0, -g, 0)), (.leftUp, Vector3(g, 0, 0)), (.bottomUp, Vector3(0, g, 0)),
            (.rightUp, Vector3(-g, 0, 0)),
        ]
        var time = 0.0
        for (pose, reading) in readings {
            let change = try #require(try settle(&engine, reading, from: time))
            time += 1
            #expect(change.device == natural.deviceOrientation(for: pose), "\(pose)")
            #expect(natural.pose(showing: try #require(change.interface)) == pose, "\(pose) shows upright")
        }
        let flat = try #require(try settle(&engine, Vector3(0, 0, -g), from: time))
        #expect(flat.device == .faceUp)
        #expect(flat.interface == natural.deviceOrientation(for: .rightUp).interfaceOrientation)
    }

    @Test("A landscape panel's mask landscape holds with the left edge up; portrait is that pose")
    func mask() throws {
        var configuration = EngineConfiguration()
        configuration.natural = .landscape
        var engine = try configuration.makeEngine(
            displayMatrix: .identity, baseMatrix: nil, tracker: try InterfaceOrientationTracker(systemMask: .landscape))
        let upright = try #require(try settle(&engine, Vector3(0, -g, 0), from: 0))
        #expect(upright.interface == .landscapeRight, "a laptop on a desk is landscape")
        let leftUp = try #require(try settle(&engine, Vector3(g, 0, 0), from: 1))
        #expect(leftUp.device == .portrait)
        #expect(leftUp.interface == .landscapeRight, "portrait is not allowed: the interface stays landscape")
    }

    @Test("Out of tablet mode a landscape convertible is held as installed, not a quarter turn away")
    func heldUpright() throws {
        var tracker = try InterfaceOrientationTracker()
        tracker.update(device: .portraitUpsideDown)
        tracker.setHeldUpright(true, upright: NaturalOrientation.landscape.deviceOrientation(for: .normal))
        #expect(tracker.interface == .landscapeRight)
        #expect(NaturalOrientation.landscape.pose(showing: tracker.interface) == .normal)
    }
}
