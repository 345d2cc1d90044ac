import OrientCore
import OrientTestSupport
import Testing

/// The trace's natural orientation as the daemon replays it; classify's naming is tested in process
/// (Tests/OrientdCommandsTests).
@Suite("natural-orientation in run --replay")
struct NaturalOrientationCommandTests {
    @Test("run --replay of a trace whose metadata says landscape names its poses so, and status says where from")
    func replay() throws {
        let landscape = try TraceFiles.poses(natural: .landscape)
        let daemon = try DaemonHarness(["--replay", landscape, "--speed", "max", "--natural-orientation", "auto"])
        try daemon.waitUntilListening()
        // The trace ends face up after the right edge was up: portrait-upside-down on a landscape panel.
        let last = try daemon.poll { $0.device == "face-up" }
        #expect(last?.interface == "portrait-upside-down" && last?.rotation == 270, "\(daemon.log)")
        let status = try daemon.poll(op: "status") { $0.statusReport?.naturalOrientation != nil }
        #expect(status?.statusReport?.naturalOrientation == "landscape")
        #expect(status?.statusReport?.naturalOrientationSource == "from the trace")
        #expect(daemon.log.contains("natural orientation: landscape (from the trace)"))
    }
}
