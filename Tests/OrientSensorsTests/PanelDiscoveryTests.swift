import Foundation
@testable import OrientSensors
import Testing

/// How the panel's mounting is read from the kernel's command line is PanelDetectionTests' (OrientCoreTests).
@Suite("Finding the panel's mounting")
struct PanelDiscoveryTests {
    @Test("The kernel's command line is read from its file; where that cannot be read, there is none")
    func kernelCommandLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cmdline-\(UUID().uuidString)").path
        try "quiet video=DSI-1:panel_orientation=right_side_up\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(PanelDiscovery.kernelCommandLine(at: path) == "quiet video=DSI-1:panel_orientation=right_side_up\n")
        #expect(PanelDiscovery.kernelCommandLine(at: path + ".missing") == nil)
    }
}
