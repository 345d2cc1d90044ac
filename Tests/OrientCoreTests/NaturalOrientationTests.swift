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
