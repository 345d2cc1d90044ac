import Foundation
import OrientCore
import OrientServer
import Testing

func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("State file")
struct StateStoreTests {
    @Test("Saved state reads back; a missing file means defaults")
    func roundTrip() throws {
        let store = StateStore(directory: try temporaryFolder() + "/nested/state")
        #expect(store.load() == .missing)
        try store.save(PersistentState(locked: true, mask: .landscape))
        #expect(store.load() == .loaded(PersistentState(locked: true, mask: .landscape)))
        try store.save(PersistentState(locked: false, mask: nil))
        #expect(store.load() == .loaded(PersistentState()))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(leftovers == ["state.json"], "no temporary file is left behind")
    }

    @Test("A corrupt file is reported, not fatal", arguments: [
        "", "{", "{\"version\":1}", "{\"version\":2,\"locked\":true}", "{\"version\":1,\"locked\":true,\"mask\":\"sideways\"}",
        "\u{0}\u{1}garbage",
    ])
    func corrupt(text: String) throws {
        let store = StateStore(directory: try temporaryFolder())
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
        guard case .corrupt(let message) = store.load() else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(message.contains(store.path))
    }

    @Test("Temporary files of dead writers are removed; a live writer's and other files are kept")
    func leftovers() throws {
        let store = StateStore(directory: try temporaryFolder())
        // No process has a PID above the kernel's maximum (2^22), so this writer is certainly gone.
        let names = [".state.json.999999999.tmp", ".state.json.\(getpid()).tmp", ".state.json.1.tmp", "notes.tmp"]
        for name in names { try Data().write(to: URL(fileURLWithPath: store.directory + "/" + name)) }
        #expect(store.removeLeftovers() == [".state.json.999999999.tmp"])
        let kept = try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        #expect(kept == [".state.json.1.tmp", ".state.json.\(getpid()).tmp", "notes.tmp"].sorted(), "init (PID 1) is alive")
    }
}
