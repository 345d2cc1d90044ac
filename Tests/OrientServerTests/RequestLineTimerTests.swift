import NIOCore
import Testing

@testable import OrientServer

/// The deadline on a request line left unfinished, on the embedded loop's clock.
@Suite("Request line timer")
struct RequestLineTimerTests {
    @Test("A line left unfinished closes the connection when the timeout passes, with request-timeout")
    func unfinishedLineCloses() throws {
        let server = EmbeddedServer(requestTimeout: .seconds(10))
        let client = try server.connect()
        let bystander = try server.connect()
        try client.send("{\"op\":\"sta")

        server.loop.advanceTime(by: .seconds(10) - .nanoseconds(1))
        #expect(client.isOpen)
        #expect(try client.received().isEmpty)

        server.loop.advanceTime(by: .nanoseconds(1))
        let error = try client.received()
        #expect(error.map(\.error?.code) == ["request-timeout"])
        #expect(error.first?.error?.message == "request line unfinished after 10.0 s")
        #expect(!client.isOpen)
        #expect(bystander.isOpen, "only that connection")
    }

    @Test("A finished line sets no deadline: an idle connection or subscriber stays open")
    func finishedLineStays() throws {
        let server = EmbeddedServer(requestTimeout: .seconds(10))
        let client = try server.connect()
        let subscriber = try server.connect()
        #expect(try client.request("{\"op\":\"status\"}").count == 1)
        #expect(try subscriber.request("{\"op\":\"subscribe\"}").count == 1)

        server.loop.advanceTime(by: .hours(1))

        #expect(client.isOpen && subscriber.isOpen)
        #expect(try client.received().isEmpty)
    }

    @Test("A line finished in time cancels its deadline")
    func lineFinishedInTime() throws {
        let server = EmbeddedServer(requestTimeout: .seconds(10))
        let client = try server.connect()
        try client.send("{\"op\":\"sta")
        server.loop.advanceTime(by: .seconds(9))
        try client.send("tus\"}\n")
        #expect(try client.received().map(\.ok) == [true])

        server.loop.advanceTime(by: .hours(1))

        #expect(client.isOpen)
    }

    @Test("Each newline is progress: a client pipelining requests in odd-sized writes is never cut off")
    func newlineRestartsTheCount() throws {
        let server = EmbeddedServer(requestTimeout: .seconds(10))
        let client = try server.connect()
        try client.send("{\"op\":\"sta")
        for _ in 0..<5 {
            server.loop.advanceTime(by: .seconds(8))
            // Ends the line begun 8 s ago and begins the next: a new count of 10 s from here.
            try client.send("tus\"}\n{\"op\":\"sta")
        }
        #expect(client.isOpen)
        #expect(try client.received().count == 5)

        server.loop.advanceTime(by: .seconds(10))
        #expect(!client.isOpen)
    }

    @Test("More bytes of the same line do not push the deadline back")
    func slowDripStillCloses() throws {
        let server = EmbeddedServer(requestTimeout: .seconds(10))
        let client = try server.connect()
        try client.send("{")
        for _ in 0..<4 {
            server.loop.advanceTime(by: .seconds(2))
            try client.send("\"")
        }
        server.loop.advanceTime(by: .seconds(2))
        #expect(try client.received().map(\.error?.code) == ["request-timeout"])
        #expect(!client.isOpen)
    }
}
