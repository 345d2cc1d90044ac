import NIOCore
import OrientCore
import OrientProtocol
import Testing

@testable import OrientServer

/// A connection as the socket server builds it, over an EmbeddedChannel: requests in, replies and events out.
@Suite("Connection handler")
struct ConnectionHandlerTests {
    @Test("Requests are answered in order with their ids, however the bytes arrive; a bad one gets an error and the connection stays")
    func requestsAnswered() throws {
        let server = EmbeddedServer()
        let client = try server.connect()

        // Two requests in one write, then one split over three writes, a blank line and one with CRLF.
        try client.send("{\"op\":\"status\",\"id\":1}\n{\"op\":\"get\",\"id\":\"two\"}\n")
        try client.send("{\"op\":\"unsub")
        #expect(try client.received().count == 2, "nothing answered before its line ends")
        try client.send("scribe\",\"id\"")
        try client.send(":3}\n  \n{\"op\":\"get\",\"id\":4,\"mask\":\"landscape\"}\r\n")
        try client.send("not json\n{\"op\":\"fly\",\"id\":5}\n{\"op\":\"status\",\"id\":6}\n")

        let replies = try client.received()
        #expect(replies.map(\.id) == [.number(3), .number(4), nil, .number(5), .number(6)])
        #expect(replies.map(\.ok) == [true, true, false, false, true])
        #expect(replies[1].mask == "landscape", "the get answered with the client's own settings")
        #expect(replies[2].error?.code == "bad-json")
        #expect(replies[3].error?.code == "unknown-op")
        #expect(replies[4].version == "test")
        #expect(client.isOpen)
    }

    @Test("A subscriber gets every change as an event until it unsubscribes")
    func subscriptionEvents() throws {
        let server = EmbeddedServer()
        let client = try server.connect()
        let other = try server.connect()

        let reply = try client.request("{\"op\":\"subscribe\",\"id\":1,\"mask\":\"portrait\"}")
        #expect(reply.map(\.id) == [.number(1)] && reply.first?.mask == "portrait")
        server.publisher.take(.accelerometerOpened(.init(id: "t", name: "t", mode: .replay)), of: .accelerometer)
        server.publisher.deviceChanged(.landscapeLeft, time: 1)
        server.publisher.deviceChanged(.portrait, time: 2)
        let events = try client.received()
        #expect(events.allSatisfy { $0.event == "orientation" })
        #expect(events.last?.device == "portrait" && events.last?.t == 2)
        #expect(events.contains { $0.device == "landscape-left" && $0.interface == "portrait" }, "its own mask applies")
        #expect(try other.received().isEmpty, "a connection that did not subscribe gets no events")

        #expect(try client.request("{\"op\":\"unsubscribe\",\"id\":2}").map(\.id) == [.number(2)])
        server.publisher.deviceChanged(.landscapeRight, time: 3)
        #expect(try client.received().isEmpty)
    }

    @Test("A disconnect ends the subscription and frees the connection's place")
    func disconnectUnsubscribes() throws {
        let server = EmbeddedServer(maximumClients: 2)
        let watcher = try server.connect()
        let subscriber = try server.connect()
        _ = try subscriber.request("{\"op\":\"subscribe\"}")
        #expect(try watcher.request("{\"op\":\"status\"}").first?.subscribers == 1)

        try subscriber.close()

        #expect(try watcher.request("{\"op\":\"status\"}").first?.subscribers == 0)
        #expect(server.connections.count == 1)
        let next = try server.connect()
        #expect(next.isOpen, "the place is free again")
        #expect(try next.received().isEmpty)
    }

    @Test("Control requests: root may; another user, or a peer not identified, is refused and nothing is saved")
    func controlByPeer() throws {
        let server = EmbeddedServer(authorizer: .rootOnly)
        let user = try server.connect(as: PeerCredentials(pid: 10, uid: 1000, gid: 1000))
        let unknown = try server.connect(as: nil)
        let root = try server.connect(as: PeerCredentials(pid: 11, uid: 0, gid: 0))

        for client in [user, unknown] {
            let refused = try client.request("{\"op\":\"lock\",\"id\":1}")
            #expect(refused.map(\.error?.code) == ["permission-denied"])
            #expect(refused.first?.id == .number(1))
            #expect(client.isOpen)
        }
        #expect(server.saved.isEmpty && !server.publisher.locked)

        let locked = try root.request("{\"op\":\"set-mask\",\"id\":2,\"mask\":\"landscape\"}")
        #expect(locked.first?.ok == true && locked.first?.mask == "landscape")
        #expect(server.saved == [PersistentState(mask: .landscape)])
        #expect(server.publisher.systemMask == .landscape)
    }

    @Test("The authorizer is asked at each request, so a changed control group applies to open connections")
    func authorizerReadPerRequest() throws {
        let server = EmbeddedServer(authorizer: .rootOnly)
        let member = try server.connect(as: PeerCredentials(pid: 10, uid: 1000, gid: 4242))
        #expect(try member.request("{\"op\":\"lock\"}").first?.error?.code == "permission-denied")

        server.policy.authorizer = .primaryGroup(4242)

        #expect(try member.request("{\"op\":\"lock\"}").first?.locked == true)
        #expect(try member.request("{\"op\":\"unlock\"}").first?.locked == false)
        #expect(server.saved == [PersistentState(locked: true), PersistentState(locked: false)])
    }

    @Test("One client too many is told so and closed; the others stay")
    func maximumClients() throws {
        let server = EmbeddedServer(maximumClients: 2)
        let first = try server.connect()
        let second = try server.connect()
        let third = try server.connect()

        let refusal = try third.received()
        #expect(refusal.map(\.error?.code) == ["too-many-clients"])
        #expect(refusal.first?.error?.message.contains("2 clients") == true)
        #expect(!third.isOpen)
        #expect(first.isOpen && second.isOpen && server.connections.count == 2)
        #expect(try first.request("{\"op\":\"status\"}").first?.subscribers == 0)
    }

    @Test("A line over 64 KiB without its end is refused and closes the connection; 64 KiB is still a line")
    func lineTooLong() throws {
        let server = EmbeddedServer()
        let longest = try server.connect()
        let line = "{\"op\":\"status\"}" + String(repeating: " ", count: SocketServer.maximumLineLength - 15)
        try #require(line.utf8.count == SocketServer.maximumLineLength)
        #expect(try longest.request(line).map(\.ok) == [true])

        let client = try server.connect()
        try client.send(String(repeating: "x", count: SocketServer.maximumLineLength))
        #expect(client.isOpen, "the limit itself is allowed")
        try client.send("xx")
        #expect(try client.received().map(\.error?.code) == ["line-too-long"])
        #expect(!client.isOpen)
        #expect(longest.isOpen)
    }
}
