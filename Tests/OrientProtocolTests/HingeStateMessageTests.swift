import OrientCore
import OrientProtocol
import Testing

@Suite("Posture, tablet mode and hinge angle in states")
struct HingeStateMessageTests {
    private func state(_ hinge: HingeState) -> OrientationState {
        OrientationState(
            device: .portrait, interface: .portrait, locked: false, mask: .all, sensor: .available, time: 3, hinge: hinge)
    }

    @Test("A known hinge is written as posture name, boolean and whole degrees, in events and replies")
    func known() throws {
        let hinge = HingeState(posture: .laptop, tabletMode: false, hingeAngle: 105)
        let event = ServerMessage.event(state(hinge)).line
        #expect(event.hasSuffix(#","t":3,"posture":"laptop","tablet-mode":false,"hinge-angle":105}"# + "\n"))
        let decoded = try ServerMessage.decode(Array(event.utf8))
        #expect(decoded.posture == "laptop" && decoded.tabletMode == false && decoded.hingeAngle == 105)
        let reply = try ServerMessage.decode(Array(
            ServerMessage.state(id: .number(2), state(HingeState(posture: .tablet, tabletMode: true, hingeAngle: 352)), fresh: true).line.utf8))
        #expect(reply.posture == "tablet" && reply.tabletMode == true && reply.hingeAngle == 352 && reply.fresh == true)
    }

    @Test("Unknown values are null, not left out; the posture is then unknown")
    func unknown() throws {
        let reply = ServerMessage.state(id: nil, state(.unknown)).line
        #expect(reply.contains(#""posture":"unknown","tablet-mode":null,"hinge-angle":null"#))
        // A posture with the angle unreadable (hinge vertical): the angle alone is null.
        let held = ServerMessage.event(state(HingeState(posture: .tent, tabletMode: true, hingeAngle: nil))).line
        #expect(held.contains(#""posture":"tent","tablet-mode":true,"hinge-angle":null"#))
        let decoded = try ServerMessage.decode(Array(held.utf8))
        #expect(decoded.tabletMode == true && decoded.hingeAngle == nil)
    }
}
