import Foundation
import OrientProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon started with the usual soft open-file limit of 1024 (prlimit), asked to serve more clients than
/// that: it raises the soft limit when the hard one allows, and otherwise admits fewer clients and refuses the
/// rest with the `too-many-clients` line. No client is ever left hanging, as it was when accept() ran out of
/// descriptors.
extension LoadTests {
    /// More clients than fit in 1024 descriptors.
    static let overLimit = 1100

    /// What each client of a swarm was told after subscribing.
    struct Admission {
        var served = 0
        var refused = 0
        var unanswered = 0
    }

    /// Every client subscribes; each is either served (an ok reply) or refused (the error line, then closed).
    static func admit(_ swarm: SocketSwarm) -> Admission {
        var replies: [ServerMessage?] = Array(repeating: nil, count: swarm.count)
        swarm.sendAll("{\"op\":\"subscribe\",\"id\":1}\n")
        func settled(_ index: Int) -> Bool {
            guard let reply = replies[index] else { return false }
            return reply.ok == true || swarm.closed[index]
        }
        swarm.run(timeout: 60, until: { swarm.closed.indices.allSatisfy(settled) }) { index, line in
            if let message = try? ServerMessage.decode(line), message.id != nil || message.error != nil { replies[index] = message }
        }
        var admission = Admission()
        for index in replies.indices {
            if replies[index]?.ok == true, !swarm.closed[index] {
                admission.served += 1
            } else if replies[index]?.error?.code == "too-many-clients", swarm.closed[index] {
                admission.refused += 1
            } else {
                admission.unanswered += 1
            }
        }
        return admission
    }

    static func requireDescriptors() throws {
        try #require(ProcessProbe.raiseOwnDescriptorLimit() >= overLimit + 64, "this process cannot open \(overLimit) sockets")
    }

    @Test("Soft limit 1024, hard limit higher: the daemon raises its soft limit and serves every client")
    func raisesSoftLimit() throws {
        try Self.requireDescriptors()
        let hard = ProcessProbe.hardDescriptorLimit
        try #require(hard >= 2048, "the hard open-file limit (\(hard)) leaves nothing to raise to")
        let (trace, _) = try DaemonEndToEndTests.trace()
        let daemon = try DaemonHarness(
            ["--replay", trace, "--max-clients", "\(Self.overLimit)"], wrapper: ["/usr/bin/prlimit", "--nofile=1024:\(hard)"])
        try daemon.waitUntilListening()
        let admission = Self.admit(try SocketSwarm(path: daemon.socket, count: Self.overLimit))
        #expect(admission.served == Self.overLimit, "\(admission)")
        #expect(daemon.log.contains("raised the open-file limit from 1024 to \(hard)"), "\(daemon.log)")
    }

    @Test("Hard limit 1024: the daemon admits what fits and refuses the rest with the documented error line")
    func refusesBeyondHardLimit() throws {
        try Self.requireDescriptors()
        let (trace, _) = try DaemonEndToEndTests.trace()
        let daemon = try DaemonHarness(
            ["--replay", trace, "--max-clients", "\(Self.overLimit)"], wrapper: ["/usr/bin/prlimit", "--nofile=1024"])
        try daemon.waitUntilListening()
        let swarm = try SocketSwarm(path: daemon.socket, count: Self.overLimit)
        let admission = Self.admit(swarm)
        #expect(admission.unanswered == 0, "every client is served or refused: \(admission)")
        #expect(admission.served >= 900 && admission.refused > 0, "\(admission)")
        #expect(daemon.log.contains("the open-file limit is 1024"), "\(daemon.log)")
        // With the served clients still connected, one more is refused too, and then closed.
        let extra = try LineClient(path: daemon.socket)
        #expect(extra.readMessage(timeout: 5)?.error?.code == "too-many-clients")
        #expect(extra.readLine(timeout: 5) == nil)
        withExtendedLifetime(swarm) {}
        print("descriptor limit 1024 (hard): \(admission.served) of \(Self.overLimit) clients served, \(admission.refused) refused")
    }

    @Test("A reload that raises max-clients raises the open-file limit too")
    func reloadRaisesLimit() throws {
        try Self.requireDescriptors()
        let hard = ProcessProbe.hardDescriptorLimit
        try #require(hard >= 2048, "the hard open-file limit (\(hard)) leaves nothing to raise to")
        let (trace, _) = try DaemonEndToEndTests.trace()
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/orientd.conf"
        try "max-clients = 100\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(
            ["--replay", trace, "--config", config], folder: folder, wrapper: ["/usr/bin/prlimit", "--nofile=1024:\(hard)"])
        try daemon.waitUntilListening()
        #expect(!daemon.log.contains("open-file limit"), "100 clients fit in 1024 descriptors: \(daemon.log)")

        try "max-clients = \(Self.overLimit)\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(waitFor { daemon.log.contains("configuration reloaded") })
        #expect(daemon.log.contains("raised the open-file limit from 1024 to \(hard) for max-clients \(Self.overLimit)"))
        let admission = Self.admit(try SocketSwarm(path: daemon.socket, count: Self.overLimit))
        #expect(admission.served == Self.overLimit, "\(admission)")
    }
}
