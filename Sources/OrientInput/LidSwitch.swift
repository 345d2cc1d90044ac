import CLinuxInput

#if canImport(Glibc)
import Glibc
#endif

/// The lid switch (SW_LID) of an evdev input device, read without blocking: its state when opened, then each
/// change as the device reports it. A shut lid tells a closed convertible (0°) from one folded flat (360°), which
/// gravity alone cannot.
public final class LidSwitch {
    public let path: String
    /// The descriptor to poll for changes.
    public let descriptor: Int32
    /// Whether the lid is shut, as last read.
    public private(set) var closed: Bool

    /// Opens `path` (an /dev/input/event* node) and reads the switch's state; throws when it cannot be opened or
    /// does not report SW_LID.
    public init(path: String) throws(InputDeviceError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDeviceError("open \(path)", errno: errno) }
        var state = [UInt8](repeating: 0, count: Self.bitmaskBytes)
        let read = state.withUnsafeMutableBytes { orientd_evdev_switch_state(descriptor, $0.baseAddress, UInt32($0.count)) }
        guard read >= 0 else {
            let error = InputDeviceError("EVIOCGSW \(path)", errno: errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        closed = Self.isSet(Int(SW_LID), in: state)
    }

    deinit { close(descriptor) }

    /// Reads the events waiting; returns the lid's state when SW_LID changed among them, nil otherwise.
    public func readChanges() -> Bool? {
        var changed: Bool?
        var events = [input_event](repeating: input_event(), count: 16)
        while true {
            let count = events.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            if let lid = Self.lidState(after: events.prefix(count / MemoryLayout<input_event>.stride)) {
                closed = lid
                changed = lid
            }
        }
        return changed
    }

    /// Whether the lid is shut after `events`, as the last SW_LID event among them says; `nil` when none is.
    static func lidState(after events: some Sequence<input_event>) -> Bool? {
        var shut: Bool?
        // By type and code: a SYN_REPORT has SW_LID's code (0) too.
        for event in events where event.type == UInt16(EV_SW) && event.code == UInt16(SW_LID) { shut = event.value != 0 }
        return shut
    }

    /// EVIOCGSW's bitmask holds every switch up to SW_MAX.
    private static let bitmaskBytes = (Int(SW_MAX) + 8) / 8

    static func isSet(_ bit: Int, in bytes: [UInt8]) -> Bool {
        bit / 8 < bytes.count && bytes[bit / 8] & (1 << UInt8(bit % 8)) != 0
    }
}
