import CLinuxInput
import Testing

@testable import OrientInput

/// The switches' events as the kernel writes and reads them: the lid's decoded, tablet mode's encoded.
@Suite("Switch events")
struct SwitchEventTests {
    private func event(_ type: Int32, _ code: Int32, _ value: Int32) -> input_event {
        var event = input_event()
        event.type = UInt16(type)
        event.code = UInt16(code)
        event.value = value
        return event
    }

    private func report() -> input_event { event(EV_SYN, SYN_REPORT, 0) }

    @Test("The lid's state is the last SW_LID event's; other events say nothing of it")
    func lidState() {
        #expect(LidSwitch.lidState(after: [event(EV_SW, SW_LID, 1), report()]) == true)
        #expect(LidSwitch.lidState(after: [event(EV_SW, SW_LID, 1), report(), event(EV_SW, SW_LID, 0), report()]) == false)
        #expect(LidSwitch.lidState(after: [event(EV_SW, SW_LID, 0), report(), event(EV_SW, SW_LID, 1), report()]) == true)
        #expect(LidSwitch.lidState(after: []) == nil)
        // SW_LID's code is 0, as are SYN_REPORT's and KEY_RESERVED's: only the type tells them apart.
        #expect(LidSwitch.lidState(after: [report(), event(EV_KEY, 0, 1), event(EV_SW, SW_TABLET_MODE, 1)]) == nil)
        #expect(LidSwitch.lidState(after: [event(EV_SW, SW_LID, 1), report(), event(EV_KEY, 0, 0)]) == true)
    }

    @Test("The lid is read from EVIOCGSW's bitmask by its bit, SW_LID, and nothing past the mask's end")
    func switchBitmask() {
        #expect(LidSwitch.isSet(Int(SW_LID), in: [0b01]))
        #expect(!LidSwitch.isSet(Int(SW_LID), in: [0b10]), "SW_TABLET_MODE alone")
        #expect(LidSwitch.isSet(Int(SW_TABLET_MODE), in: [0b10]))
        #expect(LidSwitch.isSet(9, in: [0, 0b10]))
        #expect(!LidSwitch.isSet(16, in: [0xFF, 0xFF]))
    }

    @Test("Tablet mode is reported as the switch's state, then the report that ends the frame")
    func tabletModeFrame() {
        for on in [true, false] {
            let frame = TabletModeSwitch.frame(tabletMode: on)
            #expect(frame.map(\.type) == [UInt16(EV_SW), UInt16(EV_SYN)])
            #expect(frame.map(\.code) == [UInt16(SW_TABLET_MODE), UInt16(SYN_REPORT)])
            #expect(frame.map(\.value) == [on ? 1 : 0, 0])
        }
    }
}
