import OrientProtocol
import Testing

@testable import OrientctlCommands

@Suite("orientctl watch's help")
struct WatchHelpTests {
    @Test("watch --help names every ORIENTD_ variable the hook is given")
    func namesEveryVariable() throws {
        let state = try ServerMessage.decode(Array(#"{"event":"orientation","device":"portrait","interface":"portrait","locked":false,"mask":"all","sensor":"available","t":1}"#.utf8))
        let given = HookEnvironment.variables(state, previousInterface: "unknown").keys
        #expect(given.contains("ORIENTD_ROTATION"), "\(given)")
        let help = Orientctl.helpMessage(for: Orientctl.Watch.self)
        // The help wraps its lines; a name is never split.
        for name in given.sorted() {
            #expect(help.contains(name), "watch --help does not name \(name)")
        }
    }
}
