import Foundation
import Testing

/// natural-orientation on emulated hardware: an accelerometer and the DRM connectors udev lists beside it. What each
/// panel is found to be, and how it names the poses, is in process: PanelDetectionTests, NaturalOrientationTests and
/// LandscapeEngineTests (OrientCoreTests), DoctorReportTests.panel (OrientToolsTests).
@Suite("Natural orientation under umockdev", .serialized, .enabled(if: UmockdevTestbed.isAvailable, Comment(rawValue: UmockdevTestbed.skipReason)))
struct NaturalOrientationLiveTests {
    @Test("run with no panel at start: portrait, assumed; the panel's connector appearing later renames the poses, and a landscape-only client stays landscape with the left edge up")
    func daemon() throws {
        let testbed = try UmockdevTestbed()
        // A display accelerometer reading (0, -g, 0): the panel upright as installed.
        let sensor = try testbed.addDevice(
            "iio:device0", attributes: LiveSensorTests.portraitAttributes,
            properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
        let daemon = try DaemonHarness(["--sampling", "always", "--rate", "50"], environment: testbed.environment)
        try daemon.waitUntilListening()
        #expect(try daemon.poll { $0.device == "portrait" }?.device == "portrait", "\(daemon.log)")
        #expect(daemon.log.contains("natural orientation: portrait (assumed: no internal panel"))
        // The graphics driver loads after orientd.
        try testbed.addConnector("card0-eDP-1", mode: "1920x1080")
        #expect(try daemon.poll { $0.device == "landscape-left" }?.interface == "landscape-right", "\(daemon.log)")
        #expect(daemon.log.contains("natural orientation: landscape (panel eDP-1, 1920x1080)"))
        // The left edge up: the panel stands as a portrait screen.
        try testbed.set(sensor, "in_accel_y_raw", "0")
        try testbed.set(sensor, "in_accel_x_raw", "256")
        #expect(try daemon.poll { $0.device == "portrait" }?.interface == "portrait")
        let client = try LineClient(path: daemon.socket)
        let landscapeOnly = client.request(#""op":"get","mask":"landscape""#)
        #expect(landscapeOnly?.interface == "landscape-right" && landscapeOnly?.rotation == 0)
        #expect(client.request(#""op":"get""#)?.rotation == 90, "portrait on this panel: the left edge up")
        let status = try OrientdProcess.run(["--socket", daemon.socket, "status"], executable: OrientdProcess.orientctl)
        #expect(status.stdout.contains("natural orientation: landscape (panel eDP-1, 1920x1080)"), "\(status.stdout)")
        let get = try OrientdProcess.run(["--socket", daemon.socket, "get"], executable: OrientdProcess.orientctl)
        #expect(get.stdout.contains("rotation: 90°"), "\(get.stdout)")
    }
}
