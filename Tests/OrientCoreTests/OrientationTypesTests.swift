import OrientCore
import Testing

@Suite("Orientation types and names")
struct OrientationTypesTests {
    @Test("Seven device orientations and five interface orientations, with kebab-case wire names")
    func counts() {
        #expect(DeviceOrientation.allCases.count == 7)
        #expect(InterfaceOrientation.allCases.count == 5)
        #expect(DeviceOrientation.portraitUpsideDown.rawValue == "portrait-upside-down")
        #expect(DeviceOrientation.faceDown.rawValue == "face-down")
        #expect(InterfaceOrientation(rawValue: "landscape-left") == .landscapeLeft)
    }

    @Test("Device to interface: portrait and upside down map straight, landscapes cross over, flat and unknown ask nothing",
          arguments: [
              (DeviceOrientation.portrait, InterfaceOrientation?.some(.portrait)),
              (.portraitUpsideDown, .portraitUpsideDown),
              (.landscapeLeft, .landscapeRight),
              (.landscapeRight, .landscapeLeft),
              (.faceUp, nil), (.faceDown, nil), (.unknown, nil),
          ])
    func mapping(device: DeviceOrientation, interface: InterfaceOrientation?) {
        #expect(device.interfaceOrientation == interface)
        if let interface { #expect(interface.deviceOrientation == device) }
    }

    @Test("Mask bits are UIKit's: portrait 2, upside down 4, landscape-right 8, landscape-left 16")
    func iosBits() {
        #expect(InterfaceOrientationMask.portrait.rawValue == 2)
        #expect(InterfaceOrientationMask.portraitUpsideDown.rawValue == 4)
        #expect(InterfaceOrientationMask.landscapeRight.rawValue == 8)
        #expect(InterfaceOrientationMask.landscapeLeft.rawValue == 16)
        #expect(InterfaceOrientationMask.landscape.rawValue == 24)
        #expect(InterfaceOrientationMask.allButUpsideDown.rawValue == 26)
        #expect(InterfaceOrientationMask.all.rawValue == 30)
        #expect(InterfaceOrientationMask(rawValue: 0xFF) == .all, "bits naming no orientation are dropped")
    }

    @Test("Masks parse from names and unions", arguments: [
        ("all", InterfaceOrientationMask.all),
        ("portrait|landscape", [.portrait, .landscape] as InterfaceOrientationMask),
        (" landscape-left | portrait-upside-down ", [.landscapeLeft, .portraitUpsideDown] as InterfaceOrientationMask),
        ("all-but-upside-down", .allButUpsideDown),
        ("landscape|landscape-left", .landscape),
    ])
    func parseMask(text: String, mask: InterfaceOrientationMask) throws {
        #expect(try InterfaceOrientationMask(parsing: text) == mask)
    }

    @Test("Bad mask names are refused with the offending name", arguments: ["", "portrait|", "sideways", "Portrait", "portrait,landscape"])
    func badMask(text: String) {
        #expect(throws: MaskParseError.self) { try InterfaceOrientationMask(parsing: text) }
    }

    @Test("Masks print back by name, and every printed name parses to the same mask")
    func printMask() throws {
        #expect(InterfaceOrientationMask.all.name == "all")
        #expect(InterfaceOrientationMask([.portrait, .landscapeLeft]).name == "portrait|landscape-left")
        #expect(InterfaceOrientationMask([.portraitUpsideDown, .landscapeLeft, .landscapeRight]).name == "landscape|portrait-upside-down")
        #expect(InterfaceOrientationMask().name == "none")
        for raw in stride(from: UInt(2), through: 30, by: 2) {
            let mask = InterfaceOrientationMask(rawValue: raw)
            #expect(try InterfaceOrientationMask(parsing: mask.name) == mask)
        }
    }
}
