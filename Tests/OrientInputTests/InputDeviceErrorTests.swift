import Foundation
import Testing

import OrientInput

#if canImport(Glibc)
import Glibc
#endif

/// What a unit test can see of the devices: opening what is not one fails, naming the request and the reason.
/// (Real evdev and uinput devices are tested under umockdev, in OrientdTests.)
@Suite("Input devices that are not")
struct InputDeviceErrorTests {
    /// A regular file: it opens, but answers no input request.
    private func regularFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-device-\(UUID().uuidString)").path
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("A lid switch that cannot be opened, or is no evdev device")
    func lidSwitch() throws {
        #expect {
            try LidSwitch(path: "/nonexistent/event7")
        } throws: { error in
            (error as? InputDeviceError).map { $0.operation == "open /nonexistent/event7" && $0.errno == ENOENT } ?? false
        }
        let file = try regularFile()
        defer { unlink(file) }
        #expect {
            try LidSwitch(path: file)
        } throws: { error in
            "\(error)" == "EVIOCGSW \(file): \(String(cString: strerror(ENOTTY)))"
        }
    }

    @Test("A tablet-mode switch on something that is not uinput")
    func tabletModeSwitch() throws {
        #expect {
            try TabletModeSwitch(path: "/nonexistent/uinput")
        } throws: { error in
            (error as? InputDeviceError).map { $0.operation == "open /nonexistent/uinput" && $0.errno == ENOENT } ?? false
        }
        let file = try regularFile()
        defer { unlink(file) }
        #expect {
            try TabletModeSwitch(path: file)
        } throws: { error in
            (error as? InputDeviceError).map { $0.operation == "UI_SET_EVBIT EV_SW" && $0.errno == ENOTTY } ?? false
        }
    }
}
