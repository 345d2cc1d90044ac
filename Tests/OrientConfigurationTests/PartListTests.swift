import OrientConfiguration
import OrientCore
import Testing

@Suite("A list of parts")
struct PartListTests {
    struct Mask: ConfiguredPart {
        static let reads = SettingsRead(whileRunning: [\.systemMask])
        static func slice(of settings: RunSettings) -> InterfaceOrientationMask { settings.configuration.systemMask }
        func apply(_ slice: InterfaceOrientationMask) async -> Refusal? { nil }
    }

    struct Socket: ConfiguredPart {
        let name: String
        static let reads = SettingsRead(atStart: [\.socketPath])
        static func slice(of settings: RunSettings) -> String { settings.configuration.socketPath }
        func apply(_ slice: String) async -> Refusal? { nil }
    }

    @Test("Its types, read without making a part, are the parts' it holds, in order, a type listed twice twice")
    func typesAndParts() {
        typealias Parts = PartList<Mask, Socket, Socket>
        #expect(Parts.types.map { String(describing: $0) } == ["Mask", "Socket", "Socket"])
        let parts = Parts(Mask(), Socket(name: "first"), Socket(name: "second"))
        #expect(parts.all.map { String(describing: type(of: $0)) } == ["Mask", "Socket", "Socket"])
        #expect(parts.all.compactMap { ($0 as? Socket)?.name } == ["first", "second"])
        #expect(Set(Parts.types.flatMap { $0.reads.atStart }) == ["socket"])
    }
}
