import OrientInput
import Testing

/// A switch in an input device's capabilities, as the kernel writes the bitmask.
@Suite("Switch capabilities")
struct SwitchStateTests {
    @Test("SW_FRONT_PROXIMITY (11) in the last word; other switches, other words and garbage are not it", arguments: [
        ("800", true), ("10e00", true), ("1 800", true), ("1", false), ("800 0", false), ("", nil), ("zz", nil),
    ] as [(String, Bool?)])
    func frontProximity(text: String, has: Bool?) {
        #expect(SwitchState.capability(SwitchState.frontProximity, in: text + "\n") == has, "\(text)")
    }
}
