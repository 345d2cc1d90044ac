import Foundation
import OrientProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Connections that come and go by the thousand, and clients that send half a request and stall: the daemon
/// must give back every descriptor and keep serving everyone else meanwhile.
extension LoadTests {
    @Test("10,000 connects and disconnects, then 500 clients stalled mid-line: no descriptor leak, others still served")
    func churnAndStalls() throws {
        try #require(ProcessProbe.raiseOwnDescriptorLimit() >= Self.stallers + 64, "this process cannot open \(Self.stallers) sockets")
        let (trace, _) = try DaemonEndToEndTests.trace(seed: 26)
        // A looping replay with the sensor always open: events keep coming, and no descriptor opens or closes
        // with the subscriber count. Room for every stalled client, the subscriber and the probes. The stalled
        // clients must stay for the whole check, however many there are, so the request timeout is long.
        let daemon = try DaemonHarness([
            "--replay", trace, "--loop", "--speed", "5", "--sampling", "always", "--max-clients", "\(max(1024, Self.stallers + 16))",
            "--request-timeout", "600",
        ])
        try daemon.waitUntilListening()
        let pid = daemon.process.processIdentifier
        let subscriber = try LineClient(path: daemon.socket)
        #expect(subscriber.request(#""op":"subscribe""#)?.ok == true)
        #expect(Self.events(subscriber, count: 1) == 1, "the replay is running")
        // The fewest over a moment: at its first state the daemon reads /proc/self/smaps for a few milliseconds
        // (it gives back its start-up pages), and that descriptor is not part of its steady count.
        var counts: [Int] = []
        for _ in 0..<10 {
            counts.append(try #require(ProcessProbe.openDescriptors(pid)))
            usleep(30_000)
        }
        let baseline = counts.min()!

        let churnStart = Date()
        var failures: [String] = []
        for cycle in 0..<Self.cycles {
            guard let client = try? LineClient(path: daemon.socket) else {
                failures.append("cycle \(cycle): connect failed")
                continue
            }
            // Every way a client can leave: at once, after a reply, subscribed, mid-line, and with a reply unread.
            switch cycle % 5 {
            case 0: break
            case 1: if client.request(#""op":"get""#)?.ok != true { failures.append("cycle \(cycle): no reply") }
            case 2: client.send("{\"op\":\"subscribe\"}\n")
            case 3: client.send("{\"op\":\"ge")
            default: client.send("{\"op\":\"status\"}\n")
            }
            client.close()
        }
        let churnSeconds = Date().timeIntervalSince(churnStart)
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")

        // Half a request each, and then nothing: the daemon must not wait for the rest of any of them.
        let stalled = try SocketSwarm(path: daemon.socket, count: Self.stallers)
        stalled.sendAll("{\"op\":\"get\",\"id\":")
        #expect(waitFor { (ProcessProbe.openDescriptors(pid) ?? 0) >= baseline + Self.stallers }, "the stalled clients are accepted")
        let duringStall = ProcessProbe.openDescriptors(pid) ?? 0
        // What queued up while the churn ran, unread, is not news: only events from now on count.
        while subscriber.readLine(timeout: 0.2) != nil {}
        #expect(Self.events(subscriber, count: 3) == 3, "the subscriber keeps receiving events during the stall")
        let probe = try LineClient(path: daemon.socket)
        #expect(probe.request(#""op":"get""#)?.ok == true, "get answers during the stall")
        let status = probe.request(#""op":"status""#)
        #expect(status?.subscribers == 1, "the churn's subscribers are gone; only the first is left")
        probe.close()

        stalled.closeAll()
        let settled = waitFor { ProcessProbe.openDescriptors(pid) == baseline }
        let after = ProcessProbe.openDescriptors(pid) ?? -1
        #expect(settled, "open descriptors: \(baseline) before, \(after) after")
        #expect(Self.events(subscriber, count: 1) == 1, "and after it")
        #expect(daemon.process.isRunning)
        print("""
            churn: \(Self.cycles) connect/disconnect cycles in \(String(format: "%.1f", churnSeconds)) s; daemon descriptors \
            \(baseline) before, \(duringStall) with \(Self.stallers) stalled clients, \(after) after
            """)
    }

    /// Reads up to `count` events (15 s at most); returns how many arrived.
    static func events(_ client: LineClient, count: Int) -> Int {
        var seen = 0
        let deadline = Date().addingTimeInterval(15)
        while seen < count, let message = client.readMessage(timeout: deadline.timeIntervalSinceNow) {
            if message.event != nil { seen += 1 }
        }
        return seen
    }
}
