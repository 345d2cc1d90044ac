import CLinuxInput

#if canImport(Glibc)
import Glibc
#endif

/// A uinput device that reports SW_TABLET_MODE, as a convertible's firmware switch does, so that libinput, GNOME
/// and KDE react to orientd's tablet mode (keyboard and touchpad off, on-screen keyboard on) with no change of
/// their own.
public final class TabletModeSwitch {
    public static let devicePath = "/dev/uinput"
    /// The name libinput and `libinput list-devices` show.
    public static let deviceName = "orientd tablet mode switch"

    private let descriptor: Int32
    /// What the device reports now: unknown counts as off, as a laptop without the switch.
    public private(set) var reported = false

    /// Creates the device, reporting off. Throws when /dev/uinput cannot be opened or set up.
    public init(path: String = TabletModeSwitch.devicePath) throws(InputDeviceError) {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDeviceError("open \(path)", errno: errno) }
        do {
            try Self.check(orientd_uinput_enable_event_type(descriptor, Int32(EV_SW)), "UI_SET_EVBIT EV_SW")
            try Self.check(orientd_uinput_enable_switch(descriptor, Int32(SW_TABLET_MODE)), "UI_SET_SWBIT SW_TABLET_MODE")
            try Self.check(orientd_uinput_create(descriptor, Self.deviceName, 0, 0), "UI_DEV_SETUP and UI_DEV_CREATE")
        } catch {
            close(descriptor)
            throw error
        }
        // Set only once the device exists: a class whose init throws after every property is set is deinitialised,
        // and deinit would destroy and close the descriptor a second time.
        self.descriptor = descriptor
    }

    deinit {
        _ = orientd_uinput_destroy(descriptor)
        close(descriptor)
    }

    /// Reports tablet mode on or off (`nil`, unknown, as off); nothing is written when it does not change.
    public func report(_ tabletMode: Bool?) throws(InputDeviceError) {
        let on = tabletMode ?? false
        guard on != reported else { return }
        var events = Self.frame(tabletMode: on)
        let size = MemoryLayout<input_event>.stride * events.count
        let written = events.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, size) }
        guard written == size else { throw InputDeviceError("write SW_TABLET_MODE", errno: written < 0 ? errno : EIO) }
        reported = on
    }

    /// The events that report the switch's new state: the state, then the report that ends the frame (libinput
    /// reads them together).
    static func frame(tabletMode on: Bool) -> [input_event] {
        [event(type: EV_SW, code: SW_TABLET_MODE, value: on ? 1 : 0), event(type: EV_SYN, code: SYN_REPORT, value: 0)]
    }

    private static func event(type: Int32, code: Int32, value: Int32) -> input_event {
        var event = input_event()
        event.type = UInt16(type)
        event.code = UInt16(code)
        event.value = value
        return event
    }

    private static func check(_ result: Int32, _ operation: String) throws(InputDeviceError) {
        guard result >= 0 else { throw InputDeviceError(operation, errno: errno) }
    }
}

/// A failed request to an input device, with the system's reason.
public struct InputDeviceError: Error, CustomStringConvertible {
    public let operation: String
    public let errno: Int32

    init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}
