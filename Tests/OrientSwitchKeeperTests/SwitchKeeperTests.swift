import OrientProtocol
@testable import OrientSwitchKeeper
import Testing

/// The keeper's part that needs no device: which lines it acts on, how it cuts a stream into lines, and what it does
/// to the switch for each.
@Suite("The tablet-mode switch's keeper")
struct SwitchKeeperTests {
    @Test("It acts on exactly the three lines the daemon sends, byte for byte", arguments: TabletModeSwitchState.allCases)
    func daemonsLines(_ state: TabletModeSwitchState) {
        let line = Array(ServerMessage.tabletModeSwitch(state).line.utf8.dropLast())
        let expected: SwitchCommand = switch state {
        case .on: .on
        case .off: .off
        case .none: .none
        }
        #expect(SwitchCommand(line: line) == expected)
    }

    @Test("Any other line is ignored: the reply, other events, spaces, another order, a prefix", arguments: [
        #"{"ok":true,"id":1,"device":"portrait"}"#,
        #"{"event":"orientation","device":"portrait"}"#,
        #"{"event": "tablet-mode-switch", "state": "on"}"#,
        #"{"state":"on","event":"tablet-mode-switch"}"#,
        #"{"event":"tablet-mode-switch","state":"on"} "#,
        #"{"event":"tablet-mode-switch","state":"ON"}"#,
        #"{"event":"tablet-mode-switch","state":"on"}{"event":"tablet-mode-switch","state":"off"}"#,
        "",
    ])
    func otherLines(_ line: String) {
        #expect(SwitchCommand(line: Array(line.utf8)) == nil)
    }

    @Test("Lines cut from chunks of any size; an overlong line dropped whole, the next one kept")
    func lines() {
        var assembler = LineAssembler(limit: 8)
        #expect(assembler.take(Array("ab".utf8)).isEmpty)
        #expect(assembler.take(Array("c\nde\n\nf".utf8)) == [Array("abc".utf8), Array("de".utf8), []])
        #expect(assembler.take(Array("ghijklmnopqrstuvwxyz".utf8)).isEmpty, "past the limit: dropped, not kept")
        #expect(assembler.take(Array("still the same line\nok\n".utf8)) == [Array("ok".utf8)])
        var exact = LineAssembler(limit: 3)
        #expect(exact.take(Array("abc\nabcd\n".utf8)) == [Array("abc".utf8)], "the limit itself is kept")
    }

    @Test("off or on make the switch first; each state reported once; none reports 0 and removes it")
    func keeping() {
        var keeping = SwitchKeeping()
        #expect(keeping.take(.off) == [.create])
        #expect(keeping.take(.off) == [])
        #expect(keeping.take(.on) == [.report(on: true)])
        #expect(keeping.take(.on) == [])
        #expect(keeping.take(.none) == [.report(on: false), .destroy])
        #expect(keeping.take(.none) == [])
        #expect(keeping.take(.on) == [.create, .report(on: true)])
    }

    @Test("The stream's end clears a switch left on, and removes it; with none made, nothing to do")
    func cleared() {
        var keeping = SwitchKeeping()
        #expect(keeping.clear() == [])
        _ = keeping.take(.on)
        #expect(keeping.clear() == [.report(on: false), .destroy])
        _ = keeping.take(.off)
        #expect(keeping.clear() == [.destroy])
    }
}
