import Logging
import Testing

@testable import OrientSensors

@Suite("libiio's own lines")
struct LibIIOMessagesTests {
    @Test("The two lines libiio prints on every machine are debug; anything else it says is a notice")
    func levels() {
        #expect(LibIIOMessages.level(of: "WARNING: High-speed mode not enabled") == .debug)
        #expect(LibIIOMessages.level(of: "ERROR: Error during buffer disable: No such file or directory (2)") == .debug)
        #expect(LibIIOMessages.level(of: "ERROR: Error during channel[3] disable: No such file or directory (2)") == .debug)
        #expect(LibIIOMessages.level(of: "ERROR: Unable to open device: Permission denied (13)") == .notice)
    }
}
