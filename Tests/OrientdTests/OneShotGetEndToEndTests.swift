import Foundation
import OrientCore
import OrientProtocol
import OrientScenarios
import OrientTrace
import Testing

/// `orientctl get` on an idle on-demand daemon: the sensor (here a replay) is opened for the request and closed
/// again, and the answer is the orientation the sensor reads now, not `unknown`. Gets that follow, with or without
/// settings, are tested in process (OneShotGetTests, OrientctlSettingsTests).
@Suite("One-shot get, end to end", .serialized)
struct OneShotGetEndToEndTests {
    /// A device held still with its right edge up for `seconds`, with a little noise, at 50 Hz.
    static func stillTrace(seconds: Double) throws -> String {
        var random = SeededRandom(seed: 7)
        var text = TraceFormat.preamble(TraceMetadata(mountMatrix: .identity, source: "held in landscape-left"))
        for index in 0..<Int(seconds * 50) {
            let noise = (0..<3).map { _ in Double.random(in: -0.1...0.1, using: &random) }
            let sample = AccelSample(
                time: Double(index) / 50, acceleration: Vector3(-9.80665 + noise[0], noise[1], noise[2]))
            text += TraceFormat.line(sample)
        }
        let folder = try DaemonHarness.makeFolder()
        let path = folder + "/still.trace"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("orientctl get opens the sensor, answers the orientation it reads, fresh, and the sensor closes again")
    func getOnIdleDaemon() throws {
        let daemon = try DaemonHarness(["--replay", try Self.stillTrace(seconds: 60)])
        try daemon.waitUntilListening()
        #expect(!daemon.log.contains("opening the sensor"), "on demand: nobody asked yet")

        let first = try OrientdProcess.run(["--socket", daemon.socket, "get", "--json"], executable: OrientdProcess.orientctl)
        #expect(first.status == 0, "\(first.stderr)")
        // --json prints the reply without ok and id: a state and its freshness, not a protocol line.
        let state = try printed(first.stdout)
        #expect(state["device"] as? String == "landscape-left", "not the unknown of a closed sensor: \(first.stdout)")
        #expect(state["interface"] as? String == "landscape-right")
        #expect(state["fresh"] as? Bool == true, "read now, and orientctl --json passes fresh through")
        #expect(daemon.log.contains("opening the sensor (for a get)"))
        #expect(waitFor { daemon.log.contains("closed the sensor") }, "the sensor closes once the get is answered")
    }

    /// The object `orientctl get --json` printed.
    private func printed(_ stdout: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "\(stdout)")
    }

    @Test("With no sensor at all, get answers at once that there is none")
    func getWithoutSensor() throws {
        let daemon = try DaemonHarness(["--device", "no-such-sensor"])
        try daemon.waitUntilListening()
        let started = Date()
        let reply = try LineClient(path: daemon.socket).request(#""op":"get""#)
        #expect(reply?.sensor == "none")
        #expect(reply?.fresh == false)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
