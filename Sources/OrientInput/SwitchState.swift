import CLinuxInput

#if canImport(Glibc)
import Glibc
#endif

/// One switch of an evdev input device read once (EVIOCGSW), for a sensor polled through its node: a proximity
/// switch (SW_FRONT_PROXIMITY).
public enum SwitchState {
    /// SW_FRONT_PROXIMITY: set while something is near the front of the device.
    public static let frontProximity = Int(SW_FRONT_PROXIMITY)

    /// Whether switch `code` of the device at `node` (an /dev/input/event* node) is set now.
    public static func read(_ code: Int, node: String) throws(InputDeviceError) -> Bool {
        let descriptor = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDeviceError("open \(node)", errno: errno) }
        defer { close(descriptor) }
        var state = [UInt8](repeating: 0, count: (Int(SW_MAX) + 8) / 8)
        let read = state.withUnsafeMutableBytes { orientd_evdev_switch_state(descriptor, $0.baseAddress, UInt32($0.count)) }
        guard read >= 0 else { throw InputDeviceError("EVIOCGSW \(node)", errno: errno) }
        return code / 8 < state.count && state[code / 8] & (1 << UInt8(code % 8)) != 0
    }

    /// Whether an input device's `capabilities/sw` text (hexadecimal words, the most significant first, as the
    /// kernel writes the bitmask) has switch `code`; nil when the text is not such words.
    public static func capability(_ code: Int, in text: String) -> Bool? {
        var words: [UInt64] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let value = UInt64(word, radix: 16) else { return nil }
            words.append(value)
        }
        guard !words.isEmpty else { return nil }
        let index = words.count - 1 - code / 64
        return index >= 0 && words[index] & (1 << UInt64(code % 64)) != 0
    }
}
