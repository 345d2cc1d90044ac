import Foundation
import OrientCore
import OrientProtocol
import OrientScenarios
import OrientTrace
import Testing

/// The real daemon replaying a two-sensor trace: posture, tablet mode and the hinge angle reach a subscriber.
@Suite("orientd run on a convertible's trace", .serialized)
struct ConvertibleReplayTests {
    @Test("Folding to a tablet, turning it and unfolding: the subscriber sees each posture and rotate-in at work")
    func foldReplayed() throws {
        let scenario = FoldLibrary.all(rate: 50, seed: 1).first { $0.name.hasPrefix("folding-to-tablet") }!
        var text = TraceFormat.preamble(TraceMetadata(
            mountMatrix: scenario.mountMatrix, baseMountMatrix: scenario.baseMountMatrix, source: scenario.name))
        for sample in scenario.samples { text += TraceFormat.line(sample) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-fold-\(UUID().uuidString).trace").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let daemon = try DaemonHarness(["--replay", path, "--speed", "10", "--replay-wait-for", "1"])
        try daemon.waitUntilListening()
        let client = try LineClient(path: daemon.socket)
        #expect(client.request(#""op":"subscribe""#)?.ok == true)
        var events: [ServerMessage] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, let message = client.readMessage(timeout: deadline.timeIntervalSinceNow) {
            guard message.event != nil else { continue }
            events.append(message)
            // The scenario ends unfolded, back in laptop posture after being a tablet.
            // (Laptop posture starts below 170°, tablet mode ends at 160°.)
            if message.posture == "laptop", message.tabletMode == false, events.contains(where: { $0.posture == "tablet" }) {
                break
            }
        }
        // A fold passes through the postures between (tent or stand beyond 190°): only the ends are asserted.
        var postures: [String] = []
        for posture in events.compactMap(\.posture) where ["laptop", "tablet"].contains(posture) && posture != postures.last {
            postures.append(posture)
        }
        #expect(postures == ["laptop", "tablet", "laptop"], "\(postures) \(events.count) events; log: \(daemon.log.suffix(1500))")
        #expect(events.contains { $0.tabletMode == true })
        #expect(events.last?.tabletMode == false)
        #expect(events.contains { ($0.hingeAngle ?? 0) >= 350 }, "the hinge angle reaches a tablet's")
        // Turned in all four ways while a tablet; held upright for the keyboard on either side of it.
        let interfaces = Set(events.filter { $0.posture == "tablet" }.compactMap(\.interface))
        #expect(interfaces.isSuperset(of: ["portrait", "landscape-left", "landscape-right"]), "\(interfaces)")
        #expect(events.last?.interface == "portrait")
        daemon.expectCleanStop()
    }
}
