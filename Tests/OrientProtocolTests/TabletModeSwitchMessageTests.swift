import OrientCore
import OrientProtocol
import Testing

/// The tablet-mode switch on the wire: asked for in `subscribe`, told in three exact lines, which is all its keeper
/// reads.
@Suite("The tablet-mode switch on the wire")
struct TabletModeSwitchMessageTests {
    private func decode(_ text: String) throws(ProtocolError) -> Request { try RequestDecoder.decode(Array(text.utf8)) }

    @Test("Each state is one exact line, and decodes back", arguments: TabletModeSwitchState.allCases)
    func line(_ state: TabletModeSwitchState) throws {
        let line = ServerMessage.tabletModeSwitch(state).line
        #expect(line == "{\"event\":\"tablet-mode-switch\",\"state\":\"\(state.rawValue)\"}\n")
        let decoded = try ServerMessage.decode(Array(line.utf8.dropLast()))
        #expect(decoded == .tabletModeSwitch(state) && decoded.event == "tablet-mode-switch" && decoded.id == nil)
    }

    @Test("subscribe asks for it, with no orientation events; encoded as decoded")
    func subscribe() throws {
        let request = try decode(#"{"op":"subscribe","changes":"none","tablet-mode-switch":true}"#)
        let settings = SubscriptionSettings(changes: .none, tabletModeSwitch: true)
        #expect(request.operation == .subscribe(settings))
        let line = try JSONLineEncoder.line(Request(.subscribe(settings)))
        #expect(line.contains(#""changes":"none""#) && line.contains(#""tablet-mode-switch":true"#), "\(line)")
        #expect(try decode(String(line.dropLast())).operation == .subscribe(settings))
        #expect(try !JSONLineEncoder.line(Request(.subscribe(SubscriptionSettings()))).contains("tablet-mode-switch"),
                "a request without it is as it always was")
    }

    @Test("Refused where it makes no sense, naming the field")
    func refused() {
        #expect(throws: ProtocolError(.badField, #""tablet-mode-switch" is for subscribe: its state comes as events"#)) {
            try decode(#"{"op":"get","tablet-mode-switch":true}"#)
        }
        #expect(throws: ProtocolError(.badField, #""changes": expected "all", "interface" or "none", got "some""#)) {
            try decode(#"{"op":"subscribe","changes":"some"}"#)
        }
        #expect(throws: ProtocolError.self) { try decode(#"{"op":"subscribe","tablet-mode-switch":"yes"}"#) }
    }

    @Test("An unknown state is refused when decoding, rather than read as another")
    func unknownState() {
        #expect(throws: (any Error).self) {
            try ServerMessage.decode(Array(#"{"event":"tablet-mode-switch","state":"maybe"}"#.utf8))
        }
    }
}
