import Foundation
import OrientProtocol
import OrientScenarios
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// kill -9 while the daemon writes its state file, for real: a client changes the lock and the mask as fast as
/// it can, the daemon is killed at a random moment, and the next start must read a state the client asked for.
/// A killed process's writes stay in the page cache, so this checks that the file is replaced atomically and
/// that leftovers are cleaned up, not that it survives a power cut: StateFileSyscallTests sees the fsyncs.
@Suite("State file under kill -9", .serialized)
struct StateCrashTests {
    /// The persistent state as `get` reports it.
    struct Stored: Equatable, CustomStringConvertible {
        var locked = false
        var mask = "all"
        var description: String { "locked \(locked), mask \(mask)" }
    }

    /// `set-mask` values and the mask `get` then reports (`default` is the configured `all`).
    static let masks = [("landscape", "landscape"), ("all-but-upside-down", "all-but-upside-down"), ("portrait", "portrait"),
                        ("default", "all")]

    @Test("30 kills at random moments: each restart reads the last acknowledged state or the one being written")
    func killWhileWriting() throws {
        let (trace, _) = try DaemonEndToEndTests.trace()
        let daemon = try DaemonHarness(["--replay", trace])
        try daemon.waitUntilListening()
        // Seeded: the kill instants and the request sequences repeat run after run (the scheduler's timing does not).
        var generator = SeededRandom(seed: 30)
        var believed = Stored()
        var planted = 0
        var leftBehind = 0
        for round in 1...30 {
            let hammer = Hammer(socket: daemon.socket, start: believed, seed: UInt64(round))
            hammer.start()
            // The kill lands at a random moment of a run that has begun: after the first reply, however long
            // a loaded machine takes to give it.
            #expect(hammer.waitForFirstReply(timeout: 30), "round \(round): no reply at all")
            usleep(UInt32.random(in: 0...230_000, using: &generator))
            daemon.signal(SIGKILL)
            let outcome = hammer.finish()
            #expect(outcome.errors.isEmpty, "round \(round): \(outcome.errors)")
            #expect(outcome.acknowledged > 0, "round \(round): the client got no request through before the kill")

            // A kill between creating the temporary file and renaming it leaves the file behind. When this kill
            // did not, one is left as it would have been, so that every round checks the next start removes it.
            if Self.leftovers(daemon.stateDirectory).isEmpty {
                try FileManager.default.createDirectory(atPath: daemon.stateDirectory, withIntermediateDirectories: true)
                let stale = daemon.stateDirectory + "/.state.json.\(daemon.process.processIdentifier).tmp"
                try Data(#"{"locked":tr"#.utf8).write(to: URL(fileURLWithPath: stale))
                planted += 1
            } else {
                leftBehind += 1
            }

            try daemon.restart(["--replay", trace])
            try daemon.waitUntilListening()
            let restored = try #require(try LineClient(path: daemon.socket).request(#""op":"get""#))
            let found = Stored(locked: restored.locked ?? false, mask: restored.mask ?? "?")
            let allowed = [outcome.last] + (outcome.pending.map { [$0] } ?? [])
            #expect(allowed.contains(found), "round \(round): read back \(found), expected one of \(allowed)")
            #expect(Self.leftovers(daemon.stateDirectory).isEmpty, "round \(round): a killed daemon's temporary file was kept")
            believed = found
        }
        #expect(Self.leftovers(daemon.stateDirectory).isEmpty)
        // StateStore's words for a state file it could not use.
        #expect(!daemon.log.contains("not a valid state file"), "\(daemon.log)")
        #expect(!daemon.log.contains("state.json: cannot read"), "\(daemon.log)")
        #expect(daemon.log.contains("left in \(daemon.stateDirectory) by a daemon that died"))
        print("state crash: 30 rounds, \(leftBehind) temporary files left by kills, \(planted) planted")
    }

    static func leftovers(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tmp") }
    }
}

/// A client on its own thread changing the lock and the mask as fast as replies come, until the daemon dies.
/// It keeps the last state the daemon acknowledged (saved before the reply) and the one in flight.
final class Hammer: Sendable {
    struct Outcome: Sendable {
        var last: StateCrashTests.Stored
        var pending: StateCrashTests.Stored?
        var acknowledged = 0
        var errors: [String] = []
    }

    private let socket: String
    private let outcome: Mutex<Outcome>
    private let done = DispatchSemaphore(value: 0)
    private let firstReply = DispatchSemaphore(value: 0)
    private let seed: UInt64

    init(socket: String, start: StateCrashTests.Stored, seed: UInt64) {
        self.socket = socket
        self.seed = seed
        outcome = Mutex(Outcome(last: start))
    }

    func start() {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            run()
        }
    }

    /// Waits up to `timeout` seconds for the daemon to acknowledge the first change.
    func waitForFirstReply(timeout: Double) -> Bool {
        firstReply.wait(timeout: .now() + timeout) == .success
    }

    /// Waits for the client to see the daemon gone, and returns what it knew.
    func finish() -> Outcome {
        done.wait()
        return outcome.withLock { $0 }
    }

    private func run() {
        guard let client = try? LineClient(path: socket) else {
            outcome.withLock { $0.errors.append("cannot connect") }
            return
        }
        var current = outcome.withLock { $0.last }
        var random = SeededRandom(seed: seed)
        while true {
            var next = current
            let request: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                next.locked.toggle()
                request = next.locked ? #""op":"lock""# : #""op":"unlock""#
            default:
                let (value, reported) = StateCrashTests.masks.randomElement(using: &random)!
                next.mask = reported
                request = #""op":"set-mask","mask":"\#(value)""#
            }
            outcome.withLock { $0.pending = next }
            guard let reply = client.request(request, timeout: 5) else { return }  // The daemon was killed.
            if reply.ok != true || reply.locked != next.locked || reply.mask != next.mask {
                outcome.withLock { $0.errors.append("\(request) answered \(reply)") }
                return
            }
            current = next
            let first = outcome.withLock {
                $0.last = next
                $0.pending = nil
                $0.acknowledged += 1
                return $0.acknowledged == 1
            }
            if first { firstReply.signal() }
        }
    }
}
