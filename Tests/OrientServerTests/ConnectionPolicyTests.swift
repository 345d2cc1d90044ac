import NIOCore
import Testing

@testable import OrientServer

/// How the pipeline SocketServer gives each connection reads the policy: a policy changed by a reload applies to
/// connections made, and lines begun, afterwards, without closing the ones already open.
@Suite("Socket server connection policy")
struct ConnectionPolicyTests {
    @Test("A raised max-clients admits new clients; a lowered one refuses new clients and keeps those connected")
    func maximumClientsAtConnection() throws {
        let server = EmbeddedServer(maximumClients: 1)
        let first = try server.connect()
        #expect(try server.connect().received().first?.error?.code == "too-many-clients")

        server.policy.maximumClients = 3
        let second = try server.connect()
        let third = try server.connect()
        #expect(second.isOpen && third.isOpen)
        #expect(try second.received().isEmpty)

        server.policy.maximumClients = 1
        let fourth = try server.connect()
        #expect(!fourth.isOpen)
        #expect(first.isOpen && second.isOpen && third.isOpen, "open connections are not closed")
        #expect(server.connections.count == 3)

        // Two leave: the last still fills the one place, so the next is refused until it leaves too.
        try first.close()
        try second.close()
        #expect(!(try server.connect().isOpen))
        try third.close()
        #expect(try server.connect().isOpen)
    }

    @Test("A changed request timeout applies from the next unfinished line; one already counting keeps its own")
    func requestTimeoutAtLineStart() throws {
        let server = EmbeddedServer(requestTimeout: .seconds(10))
        let counting = try server.connect()
        let later = try server.connect()
        try counting.send("{")

        server.policy.requestTimeout = .seconds(2)
        try later.send("{")
        server.loop.advanceTime(by: .seconds(2))
        #expect(!later.isOpen)
        #expect(counting.isOpen)

        server.loop.advanceTime(by: .seconds(8))
        #expect(!counting.isOpen)
        #expect(try counting.received().first?.error?.message == "request line unfinished after 10.0 s")
    }
}
