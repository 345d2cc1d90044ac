import Foundation
import OrientProtocol
import OrientScenarios
import OrientTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real daemon under load: a thousand subscribers for a minute, the open-file limit, connection churn and
/// clients that stall mid-line. `make test` runs this suite on its own, after the others and without
/// parallelism, so that it does not compete with them for the machine. scripts/load-test.sh runs it by hand,
/// with bigger numbers through the ORIENTD_LOAD_* variables.
@Suite("Load", .serialized)
struct LoadTests {
    static let clients = setting("ORIENTD_LOAD_CLIENTS", 1000)
    static let seconds = setting("ORIENTD_LOAD_SECONDS", 60)
    static let cycles = setting("ORIENTD_LOAD_CYCLES", 10_000)
    static let stallers = setting("ORIENTD_LOAD_STALLERS", 500)

    static func setting(_ name: String, _ standard: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? standard
    }

    @Test("A thousand subscribers through a minute of fast replay: every change, in order, and flat memory")
    func thousandSubscribers() throws {
        let clients = Self.clients
        try #require(ProcessProbe.raiseOwnDescriptorLimit() >= clients + 64, "this process cannot open \(clients) sockets")
        // About 3 s of trace per turn: 5 turns per second of run gives hundreds of changes, replayed fast enough
        // to take `seconds`.
        let scenario = ScenarioLibrary.session(rate: 50, seed: 41, turns: 5 * Self.seconds)
        let path = try TraceFiles.write(scenario)
        let classified = try OrientdProcess.run(["classify", path])
        let expected = try changes(classified.stdout)
        // Over 4 changes a second: hundreds in the default minute.
        try #require(classified.status == 0 && expected.count >= 4 * Self.seconds, "\(expected.count) changes: \(classified.stderr)")
        let traceSeconds = scenario.samples.last!.time - scenario.samples.first!.time
        let speed = traceSeconds / Double(Self.seconds)

        let daemon = try DaemonHarness([
            "--replay", path, "--speed", String(format: "%.3f", speed), "--replay-wait-for", "\(clients)",
            "--max-clients", "\(max(1024, clients))",
        ])
        try daemon.waitUntilListening()
        let pid = daemon.process.processIdentifier
        let swarm = try SocketSwarm(path: daemon.socket, count: clients)
        var tallies = Array(repeating: SubscriberTally(expected: expected), count: clients)
        swarm.sendAll("{\"op\":\"subscribe\",\"id\":1}\n")
        let subscribed = swarm.run(timeout: 60, until: { tallies.allSatisfy { $0.subscribed || $0.problem != nil } }) {
            tallies[$0].take($1)
        }
        try #require(subscribed, "\(tallies.filter(\.subscribed).count) of \(clients) subscribed:\n\(daemon.log)")

        // From here the replay runs; the daemon's memory is sampled each second until every change has arrived.
        let started = Date()
        var samples: [(seconds: Double, kib: Int)] = []
        swarm.run(
            timeout: Double(Self.seconds) * 2 + 60,
            tick: { if let kib = ProcessProbe.rssAnon(pid) { samples.append((Date().timeIntervalSince(started), kib)) } },
            until: { tallies.allSatisfy { $0.isComplete || $0.problem != nil } || swarm.openCount < clients }
        ) { tallies[$0].take($1) }
        let elapsed = Date().timeIntervalSince(started)

        let problems = tallies.enumerated().compactMap { index, tally in tally.problem.map { "client \(index): \($0)" } }
        #expect(problems.isEmpty, "\(problems.count) subscribers went wrong, first: \(problems.prefix(3))")
        #expect(swarm.openCount == clients, "the daemon closed \(clients - swarm.openCount) subscribers")
        let complete = tallies.filter(\.isComplete).count
        #expect(complete == clients, "\(complete) of \(clients) subscribers received all \(expected.count) changes")

        // The bound: after the first fifth of the run every buffer, cache and connection exists; what the daemon
        // still allocates per event (an encoded line, a NIO write) is freed once written. A leak of even 16 bytes
        // per subscriber per change would grow by 16 B × 1000 × ~250 changes ≈ 4 MB between the two samples,
        // while malloc's own noise here is well under 1 MiB (see RELIABILITY.md for the figures).
        let early = samples.first { $0.seconds >= Double(Self.seconds) / 5 }
        let late = samples.last
        let samplesText = samples.enumerated().filter { $0.offset % 5 == 0 || $0.offset == samples.count - 1 }
            .map { "\(Int($0.element.seconds)) s \($0.element.kib)" }.joined(separator: ", ")
        if let early, let late, late.seconds > early.seconds {
            #expect(late.kib - early.kib < 1024, "RssAnon grew from \(early.kib) KiB to \(late.kib) KiB: \(samplesText)")
        } else {
            Issue.record("too few memory samples: \(samplesText)")
        }
        daemon.expectCleanStop()
        print("""
            load: \(clients) subscribers, \(expected.count) changes of a \(Int(traceSeconds)) s trace at speed \
            \(String(format: "%.1f", speed)), all received in \(String(format: "%.1f", elapsed)) s; \
            RssAnon KiB every 5 s: \(samplesText)
            """)
    }
}
